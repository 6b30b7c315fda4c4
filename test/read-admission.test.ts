import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ReadAdmission } from '../src/http/read-admission.js';

// Writes first, at the node: at most N reads are answered at once, more wait their turn; a write
// never waits for them. Over real HTTP, with reads that answer when the test lets them.

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  server = undefined;
});

/** A node admitting `limit` reads at once, whose reads answer only when `release()` is called; it records the order requests began. */
async function nodeWith(limit: number) {
  const admission = new ReadAdmission(limit);
  const begun: string[] = [];
  const held: Array<() => void> = [];
  server = createServer((req, res) =>
    admission.admit(req, res, () => {
      begun.push(`${req.method} ${req.url}`);
      if (req.method === 'GET') held.push(() => res.end('read'));
      else res.end('written');
    }),
  );
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const until = async (check: () => boolean) => {
    for (let i = 0; i < 200 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(check()).toBe(true);
  };
  return { base, begun, release: () => held.shift()!(), until };
}

describe('reads admitted a few at a time', () => {
  it('answers a write at once while reads wait their turn', async () => {
    const node = await nodeWith(2);
    const reads = [1, 2, 3, 4].map((i) => fetch(`${node.base}/read/${i}`).then((r) => r.text()));
    await node.until(() => node.begun.length === 2);
    expect(await (await fetch(`${node.base}/write`, { method: 'POST' })).text()).toBe('written');
    expect(node.begun).toEqual(['GET /read/1', 'GET /read/2', 'POST /write']);
    for (let i = 0; i < 4; i++) {
      await node.until(() => node.begun.filter((b) => b.startsWith('GET')).length > i);
      node.release();
    }
    expect(await Promise.all(reads)).toEqual(['read', 'read', 'read', 'read']);
    expect(node.begun.filter((b) => b.startsWith('GET'))).toEqual(['GET /read/1', 'GET /read/2', 'GET /read/3', 'GET /read/4']);
  });

  it('gives the turn of a client that left while waiting to the next', async () => {
    const node = await nodeWith(1);
    const first = fetch(`${node.base}/read/1`).then((r) => r.text());
    await node.until(() => node.begun.length === 1);
    const leaving = new AbortController();
    const gone = fetch(`${node.base}/read/2`, { signal: leaving.signal }).catch(() => 'left');
    const third = fetch(`${node.base}/read/3`).then((r) => r.text());
    leaving.abort();
    expect(await gone).toBe('left');
    node.release();
    await node.until(() => node.begun.length === 2);
    node.release();
    expect([await first, await third]).toEqual(['read', 'read']);
    expect(node.begun).toEqual(['GET /read/1', 'GET /read/3']);
  });
});
