import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

// A local webhook receiver (127.0.0.1) recording every request; `respond` decides each answer.

export interface Received {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  json: any;
}

export type Answer = { status: number; body?: string; headers?: Record<string, string>; delayMs?: number } | 'hang';

export interface Receiver {
  url: string;
  port: number;
  received: Received[];
  /** Requests whose `webhook-id` was not seen before (what a deduping receiver processes). */
  unique(): Received[];
  respond(answer: (request: Received, index: number) => Answer): void;
  waitFor(count: number, timeoutMs?: number): Promise<Received[]>;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const received: Received[] = [];
  let answer: (request: Received, index: number) => Answer = () => ({ status: 200, body: 'ok' });
  const hanging = new Set<ServerResponse>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let json: unknown;
      try {
        json = JSON.parse(body);
      } catch {
        json = undefined;
      }
      const request: Received = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body, json };
      received.push(request);
      const reply = answer(request, received.length - 1);
      if (reply === 'hang') {
        hanging.add(res);
        return;
      }
      const send = () => {
        res.writeHead(reply.status, reply.headers);
        res.end(reply.body ?? '');
      };
      if (reply.delayMs) setTimeout(send, reply.delayMs);
      else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    port,
    received,
    unique() {
      const seen = new Set<string>();
      return received.filter((r) => {
        const id = String(r.headers['webhook-id']);
        if (seen.has(id)) return false;
        seen.add(id);
        return true;
      });
    },
    respond(next) {
      answer = next;
    },
    async waitFor(count, timeoutMs = 15_000) {
      const deadline = Date.now() + timeoutMs;
      while (received.length < count) {
        if (Date.now() > deadline) throw new Error(`receiver got ${received.length} requests, expected ${count}`);
        await new Promise((r) => setTimeout(r, 10));
      }
      return received;
    },
    async close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Polls `probe` until it returns a value that is not undefined/false, within a bound. */
export async function eventually<T>(probe: () => Promise<T | undefined | false> | T | undefined | false, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value as T;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}
