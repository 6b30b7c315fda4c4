import type { ErrorBody } from '../errors.js';
import type { RestRequest } from './request.js';

// SOFA coerces path, query and body values to their argument's scalar type before running a
// route, and its error ("Int cannot represent non 32-bit signed integer value: 2147483648") drops
// the argument's name. This finds which value it was, so the 400 names its field as every other does.

const coercion = /cannot represent[^:]*: "?(.*?)"?$/;

/** The argument whose raw value a coercion error quotes, from the path, the query or a JSON body. */
export async function coercionField(error: ErrorBody, request: RestRequest, params: Record<string, string>): Promise<string | undefined> {
  const quoted = coercion.exec(error.message)?.[1];
  if (quoted === undefined) return undefined;
  const same = (value: unknown) => value !== null && typeof value !== 'object' && String(value) === quoted;
  const fromPath = Object.keys(params).find((key) => same(params[key]));
  if (fromPath) return fromPath;
  for (const [key, value] of new URL(request.url).searchParams) if (same(value)) return key;
  let body: unknown;
  try {
    body = JSON.parse(await request.text());
  } catch {
    return undefined;
  }
  if (!body || typeof body !== 'object' || Array.isArray(body)) return undefined;
  return Object.keys(body).find((key) => same((body as Record<string, unknown>)[key]));
}
