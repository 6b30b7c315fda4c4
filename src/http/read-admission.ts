import type { IncomingMessage, ServerResponse } from 'node:http';

/** Methods that only read. */
export const readMethods = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Writes first, at the node: at most `limit` reads (GET, HEAD) are being answered at once, and
 * more wait their turn, first come first served, before anything of them runs; a write (any other
 * method) never waits here. A read's turn ends when its answer's headers are written (its work is
 * done, or it streams) or its client goes.
 *
 * Why: a node's event loop serves every request's steps in the order they become ready. Under a
 * console of readers (200 agents reading the inbox back to back) each step of a post (its sign-in
 * check, its write, its answer) waited behind the renderings of every read begun meanwhile: p99
 * 300-450 ms for a post that takes 10 ms alone (issue 39). Reads beyond what the database's
 * connections can serve at once would only wait for a connection anyway (the pool keeps some for
 * writes, connection-admission.ts); here they wait without holding anything, and a post's steps
 * find a short queue.
 */
export class ReadAdmission {
  private serving = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(private readonly limit: number) {}

  /** Runs `serve` now, or once a read's turn is free when `req` is a read and `limit` are served. */
  admit(req: IncomingMessage, res: ServerResponse, serve: () => void) {
    if (!this.limit || (req.method !== 'GET' && req.method !== 'HEAD')) return serve();
    let state: 'waiting' | 'served' | 'ended' = 'waiting';
    const end = () => {
      if (state === 'served') {
        this.serving--;
        this.waiting.shift()?.();
      }
      state = 'ended';
    };
    const start = () => {
      state = 'served';
      this.serving++;
      const writeHead = res.writeHead;
      res.writeHead = function (this: ServerResponse, ...args: Parameters<ServerResponse['writeHead']>) {
        end();
        return writeHead.apply(this, args);
      } as ServerResponse['writeHead'];
      serve();
    };
    // A client that leaves while waiting gives up its place; one being served ends its turn.
    res.once('close', () => {
      if (state === 'waiting') this.waiting.splice(this.waiting.indexOf(start), 1);
      end();
    });
    if (this.serving < this.limit) start();
    else this.waiting.push(start);
  }
}
