import { AsyncResource } from 'node:async_hooks';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import type { Yoga } from './yoga.js';
import { bodyTooLarge, methodNotAllowed } from '../errors.js';
import { inRequestScope, requestInProgress } from '../infra/request-scope.js';
import { errorResponse } from '../rest/plugin.js';
import { isMultipart } from './multipart-form.js';
import { restPathOf } from '../rest/base-path.js';
import { chooseEncoding } from './compression.js';
import { corsPolicy, type CorsPolicy } from './cors.js';
import { allowedMethods, type KnownPaths } from './methods.js';
import type { RequestGate } from './rate-limit.js';
import { readMethods, type ReadAdmission } from './read-admission.js';
import { requestIdHeader, requestIdOf } from './request-id.js';
import { replyOf, writeReply, type NodeRequestView, type Reply } from './node-request.js';

export type NodeListener = (req: IncomingMessage, res: ServerResponse) => void;

/** The call a lane answers (a thunk producing the answer), or null to leave it to the next. */
export type Lane = (req: IncomingMessage, res: ServerResponse) => (() => Promise<Reply>) | null;

/** The conventions every answer follows, whichever lane or yoga writes it. */
export interface Conventions {
  cors: CorsPolicy;
  /** Known paths and their methods, for 405 answers; none known: no 405s. */
  knownPaths?: KnownPaths;
  /** True once the node is shutting down: answers then close their connections. */
  draining?: () => boolean;
  /**
   * The one body limit: a request declaring a longer body is answered 413 before anything reads
   * it, and the lanes count chunked bodies against it as they read. Multipart bodies under /v3
   * are the exception: their routes read them within their own limits (FILE_MAX_BYTES, KB_FETCH_MAX_BYTES).
   */
  bodyLimitBytes?: number;
  /** How many API reads are answered at once (writes first, read-admission.ts); none: no limit. */
  reads?: ReadAdmission;
}

const anyOrigin = corsPolicy({ corsOrigins: '*', corsMaxAgeSeconds: 600 });

/**
 * The HTTP entry point. Every request gets its request id (`x-request-id`, in every log line
 * written for it and on its answer) and its CORS headers; preflights are answered here. `gate`
 * (the rate limit) sees every other request first and may answer it; then the first lane that
 * takes a request answers it; a known path asked with a method it does not answer gets 405;
 * anything else goes to `fallback` (yoga). HEAD runs as GET: node leaves out the body it writes.
 * One request line per request, whoever answers it.
 */
export function createListener(
  lanes: Lane[],
  fallback: NodeListener,
  logger: Logger,
  gate?: RequestGate,
  conventions: Conventions = { cors: anyOrigin },
): NodeListener {
  const { cors, knownPaths, draining, bodyLimitBytes, reads } = conventions;
  const overLimit = (req: IncomingMessage) =>
    bodyLimitBytes !== undefined &&
    Number(req.headers['content-length'] ?? 0) > bodyLimitBytes &&
    !(isMultipart(req.headers['content-type']) && restPathOf(req.url ?? '/') !== null);

  const handle = (req: IncomingMessage, res: ServerResponse, requestId: string) => {
    const started = performance.now();
    const headers: Record<string, string> = { [requestIdHeader]: requestId, ...cors.headersFor(req.headers.origin) };
    if (draining?.()) headers.connection = 'close';
    const answer = (reply: Reply, encoding?: ReturnType<typeof chooseEncoding>) => {
      Object.assign(reply.headers, headers);
      writeReply(res, reply, encoding);
      logger.info({ method: req.method, path: pathOf(req), status: reply.status, ms: Math.round((performance.now() - started) * 10) / 10 }, 'request');
    };

    const preflight = cors.preflight(req);
    if (preflight) return answer(preflight);
    // Node decided when it made `res` that a HEAD answer has no body: whatever GET writes, only its headers go out.
    if (req.method === 'HEAD') req.method = 'GET';

    const limitHeaders = gate ? gate(req, res, headers) : undefined;
    if (limitHeaders === false) {
      logger.info({ method: req.method, path: pathOf(req), status: res.statusCode, ms: 0 }, 'request');
      return;
    }
    if (limitHeaders) Object.assign(headers, limitHeaders);
    if (overLimit(req)) {
      req.resume();
      void tooLargeReply(bodyLimitBytes!).then((reply) => answer(reply));
      return;
    }
    for (const lane of lanes) {
      const run = lane(req, res);
      if (!run) continue;
      void run()
        .catch((error: unknown): Promise<Reply> => {
          logger.error({ err: error }, 'unexpected error');
          return replyOf(errorResponse(error));
        })
        .then((reply) => answer(reply, chooseEncoding(req.headers['accept-encoding'])))
        .catch((error: unknown) => {
          logger.error({ err: error }, 'response failed');
          res.destroy();
        });
      return;
    }
    if (knownPaths && req.method !== 'OPTIONS') {
      const pathname = pathOf(req);
      const allow = allowedMethods(knownPaths, pathname);
      if (allow && !allow.includes(req.method ?? 'GET')) {
        req.resume();
        void replyOf(errorResponse(methodNotAllowed(req.method ?? '', pathname, allow))).then((reply) => answer(reply));
        return;
      }
    }
    for (const name in headers) res.setHeader(name, headers[name]);
    res.once('finish', () => logger.info({ method: req.method, path: pathOf(req), status: res.statusCode, ms: Math.round((performance.now() - started) * 10) / 10 }, 'request'));
    fallback(req, res);
  };

  return (req, res) => {
    const requestId = requestIdOf(req);
    inRequestScope(
      requestId,
      () => {
        // Once answered (or given up by its client), what the request left running waits for a
        // database connection as background work does (connection-admission.ts).
        const progress = requestInProgress()!;
        res.once('close', () => (progress.answered = true));
        // An API read waits its turn behind the reads being served (read-admission.ts), in this
        // request's own scope whichever request's end lets it go.
        if (reads && (pathOf(req) === '/graphql' || restPathOf(req.url ?? '/') !== null)) reads.admit(req, res, AsyncResource.bind(() => handle(req, res, requestId)));
        else handle(req, res, requestId);
      },
      // A GraphQL query sent by POST is noted as a read once parsed (graphql/read-only.ts).
      { writes: !readMethods.has(req.method ?? 'GET') },
    );
  };
}

function pathOf(req: IncomingMessage) {
  const url = req.url ?? '/';
  const queryAt = url.indexOf('?');
  return queryAt < 0 ? url : url.slice(0, queryAt);
}

/** The 413 answer of a lane whose body went over the limit. */
export const tooLargeReply = (limit: number) => replyOf(errorResponse(bodyTooLarge(limit)));

/** Yoga's answer to a request a lane read the body of, then left to yoga. */
export async function yogaReply(yoga: Yoga, view: NodeRequestView, req: IncomingMessage): Promise<Reply> {
  // Without Accept-Encoding: the lane compresses what it writes (writeReply), yoga must not.
  return replyOf(await yoga.fetch(view.toFetchRequest() as never, { req } as never));
}
