import { restBasePath, type RestApi, type RestRequest } from '../rest/plugin.js';
import { tooLargeReply, type Lane } from './listener.js';
import { hasBody, jsonContentType, NodeRequestView, readBody, requestUrl } from './node-request.js';

// The REST lane: a /v3 call with a JSON body (or none) to a generated route runs straight from
// node's request: same route table, SOFA handler, context, execution and error bodies as the REST
// face inside yoga; only yoga's request adaptation is skipped. Requests another plugin answers or
// rewrites (uploads, downloads, array bodies) and unknown paths are left to yoga.

export interface RestLaneOptions {
  rest: RestApi;
  bodyLimitBytes: number;
  /** True for requests a plugin ahead of the REST face answers or rewrites. */
  claimedElsewhere(method: string, pathname: string): boolean;
}

export function restLane({ rest, bodyLimitBytes, claimedElsewhere }: RestLaneOptions): Lane {
  return (req) => {
    const method = req.method ?? 'GET';
    const rawUrl = req.url ?? '/';
    if (!rawUrl.startsWith(`${restBasePath}/`)) return null;
    const queryAt = rawUrl.indexOf('?');
    let pathname = queryAt < 0 ? rawUrl : rawUrl.slice(0, queryAt);
    if (pathname.endsWith('/')) pathname = pathname.replace(/\/+$/, '');
    const withBody = hasBody(req);
    const contentType = req.headers['content-type'];
    if (withBody && contentType !== undefined && !jsonContentType.test(contentType)) return null;
    if (claimedElsewhere(method, pathname)) return null;
    const route = rest.match(method, pathname);
    if (!route) return null;
    return async () => {
      const raw = withBody ? await readBody(req, bodyLimitBytes) : null;
      if (withBody && raw === null) {
        return tooLargeReply(bodyLimitBytes);
      }
      const view = new NodeRequestView(method, requestUrl(req, queryAt < 0 ? pathname : pathname + rawUrl.slice(queryAt)), req, raw);
      return rest.respond(view as unknown as RestRequest, route, { req, request: view });
    };
  };
}
