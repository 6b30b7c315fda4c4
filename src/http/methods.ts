// Which methods a known path answers, for `405 Method Not Allowed` with its `Allow` header: a path
// that exists asked with another method is not "not found". HEAD goes wherever GET does, and
// OPTIONS everywhere (CORS preflights).

const candidates = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

export interface KnownPaths {
  /** Paths the server answers outside its route table, with their methods. */
  fixed: Record<string, string[]>;
  /** True when a route of the table (or a raw route) answers `method` on `pathname`. */
  answers(method: string, pathname: string): boolean;
}

/** The `Allow` list of a known path, or null when no method answers it (a 404). */
export function allowedMethods({ fixed, answers }: KnownPaths, pathname: string): string[] | null {
  const trimmed = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  const methods = fixed[trimmed] ?? candidates.filter((method) => answers(method, trimmed));
  if (!methods.length) return null;
  return [...methods, ...(methods.includes('GET') ? ['HEAD'] : []), 'OPTIONS'];
}
