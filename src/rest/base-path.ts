/** Where the REST face is served. */
export const restBasePath = '/v3';

/** The path of a /v3 request without its trailing slashes, or null for another path. */
export function restPathOf(rawUrl: string): string | null {
  if (rawUrl !== restBasePath && !rawUrl.startsWith(`${restBasePath}/`) && !rawUrl.startsWith(`${restBasePath}?`)) return null;
  const queryAt = rawUrl.indexOf('?');
  const pathname = queryAt < 0 ? rawUrl : rawUrl.slice(0, queryAt);
  return pathname.length > restBasePath.length ? pathname.replace(/\/+$/, '') || restBasePath : pathname;
}
