import type { IncomingMessage } from 'node:http';
import type { HttpSettings } from '../config.js';
import type { Reply } from './node-request.js';

// Cross-origin calls from web pages, on every path and lane. With `CORS_ORIGINS=*` (the default)
// any page may call the API, as with public APIs such as GitHub's: the answer says `*` and never
// allows the browser's own credentials (cookies), which the API does not use; a page sends the
// API's credentials as an Authorization header it sets itself. With a list, only those origins
// get an answer naming them, with credentials allowed; any other origin gets no CORS headers, so
// the browser keeps the answer from the page. An origin is never reflected unless it is listed.

/** Headers a page's script may read besides the CORS-safelisted ones. */
const exposed = [
  'x-request-id',
  'ratelimit-limit',
  'ratelimit-remaining',
  'ratelimit-reset',
  'retry-after',
  'idempotent-replayed',
  'location',
  'content-disposition',
  'allow',
].join(', ');

const methods = 'GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS';
/** What a preflight may ask for when it names no headers of its own. */
const defaultHeaders = 'authorization, content-type, idempotency-key, x-request-id';

export interface CorsPolicy {
  /** Headers of an answer to a request from `origin` (none for a same-origin or non-browser call). */
  headersFor(origin: string | undefined): Record<string, string> | undefined;
  /** The answer to a preflight (OPTIONS with Access-Control-Request-Method), or null for any other request. */
  preflight(req: IncomingMessage): Reply | null;
}

export function corsPolicy({ corsOrigins, corsMaxAgeSeconds }: Pick<HttpSettings, 'corsOrigins' | 'corsMaxAgeSeconds'>): CorsPolicy {
  const anyOrigin = corsOrigins === '*';
  const listed = new Set(anyOrigin ? [] : corsOrigins);
  const forAny = { 'access-control-allow-origin': '*', 'access-control-expose-headers': exposed };
  // A listed origin's answer differs from another's: caches must keep them apart, also for calls without an Origin.
  const notAllowed = { vary: 'origin' };

  const headersFor = (origin: string | undefined): Record<string, string> | undefined => {
    if (anyOrigin) return origin === undefined ? undefined : { ...forAny };
    if (origin === undefined || !listed.has(origin.toLowerCase())) return { ...notAllowed };
    return {
      'access-control-allow-origin': origin,
      'access-control-allow-credentials': 'true',
      'access-control-expose-headers': exposed,
      vary: 'origin',
    };
  };

  return {
    headersFor,
    preflight(req) {
      if (req.method !== 'OPTIONS' || req.headers['access-control-request-method'] === undefined) return null;
      const headers: Record<string, string> = { ...headersFor(req.headers.origin), 'content-length': '0' };
      if (headers['access-control-allow-origin'] !== undefined) {
        headers['access-control-allow-methods'] = methods;
        // Whatever headers the page asks to send: the API reads only those it knows.
        headers['access-control-allow-headers'] = req.headers['access-control-request-headers'] || defaultHeaders;
        headers['access-control-max-age'] = String(corsMaxAgeSeconds);
        delete headers['access-control-expose-headers'];
      }
      headers.vary = anyOrigin ? 'access-control-request-headers' : 'origin, access-control-request-headers';
      return { status: 204, headers, body: '' };
    },
  };
}
