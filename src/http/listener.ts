import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import type { App } from '../app.js';
import { bodyTooLarge } from '../errors.js';
import { errorResponse } from '../rest/plugin.js';
import type { RequestGate } from './rate-limit.js';
import { replyOf, writeReply, type NodeRequestView, type Reply } from './node-request.js';

export type NodeListener = (req: IncomingMessage, res: ServerResponse) => void;

/** The call a lane answers (a thunk producing the answer), or null to leave it to the next. */
export type Lane = (req: IncomingMessage, res: ServerResponse) => (() => Promise<Reply>) | null;

/** Marks a yoga call made by a lane, whose request line the lane writes itself. */
export const fromLane = 'fromLane';

/**
 * The HTTP entry point: `gate` (the rate limit) sees every request first and may answer it; then
 * the first lane that takes a request answers it; anything no lane takes goes to `fallback` (yoga).
 * One request line per request, as yoga's own log plugin writes.
 */
export function createListener(lanes: Lane[], fallback: NodeListener, logger: Logger, gate?: RequestGate): NodeListener {
  return (req, res) => {
    const limitHeaders = gate ? gate(req, res) : undefined;
    if (limitHeaders === false) {
      logger.info({ method: req.method, path: (req.url ?? '/').split('?')[0], status: res.statusCode, ms: 0 }, 'request');
      return;
    }
    for (const lane of lanes) {
      const run = lane(req, res);
      if (!run) continue;
      const started = performance.now();
      void run()
        .catch((error: unknown): Promise<Reply> => {
          logger.error({ err: error }, 'unexpected error');
          return replyOf(errorResponse(error));
        })
        .then((reply) => {
          if (limitHeaders) Object.assign(reply.headers, limitHeaders);
          writeReply(res, reply);
          const path = (req.url ?? '/').split('?')[0];
          logger.info({ method: req.method, path, status: reply.status, ms: Math.round((performance.now() - started) * 10) / 10 }, 'request');
        })
        .catch((error: unknown) => {
          logger.error({ err: error }, 'response failed');
          res.destroy();
        });
      return;
    }
    if (limitHeaders) for (const name in limitHeaders) res.setHeader(name, limitHeaders[name]);
    fallback(req, res);
  };
}

/** The 413 answer of a lane whose body went over the limit. */
export const tooLargeReply = (limit: number) => replyOf(errorResponse(bodyTooLarge(limit)));

/** Yoga's answer to a request a lane read the body of, then left to yoga. */
export async function yogaReply(yoga: App['yoga'], view: NodeRequestView, req: IncomingMessage): Promise<Reply> {
  return replyOf(await yoga.fetch(view.toFetchRequest() as never, { req, [fromLane]: true } as never));
}
