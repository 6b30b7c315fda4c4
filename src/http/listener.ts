import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { errorResponse } from '../rest/plugin.js';
import type { Lane } from './rest-lane.js';
import { replyOf, writeReply, type Reply } from './node-request.js';

export type NodeListener = (req: IncomingMessage, res: ServerResponse) => void;

/** Marks a yoga call made by a lane, whose request line the lane writes itself. */
export const fromLane = 'fromLane';

/**
 * The HTTP entry point: the first lane that takes a request answers it; anything no lane takes
 * goes to `fallback` (yoga). One request line per request, as yoga's own log plugin writes.
 */
export function createListener(lanes: Lane[], fallback: NodeListener, logger: Logger): NodeListener {
  return (req, res) => {
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
    fallback(req, res);
  };
}
