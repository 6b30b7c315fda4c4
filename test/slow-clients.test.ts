import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer } from './helpers/app.js';

// Slow clients (slowloris): headers that trickle in, and bodies that do, are cut off by their
// timeouts with a 408; one address holds a bounded number of connections at once. Each test uses
// its own loopback address, so the cap of one does not touch another (nor this file's fetches).

let node: Awaited<ReturnType<typeof createTestServer>>;
let port: number;
beforeAll(async () => {
  node = await createTestServer({ HTTP_HEADERS_TIMEOUT_MS: '500', HTTP_REQUEST_TIMEOUT_MS: '1500', HTTP_MAX_CONNECTIONS_PER_ADDRESS: '5' });
  port = Number(new URL(node.server.url).port);
});
afterAll(() => node.client.close());

interface Connection {
  socket: Socket;
  received(): string;
  /** Resolves with the milliseconds from opening until the server closed it. */
  closed: Promise<number>;
}

async function open(from: string): Promise<Connection> {
  const started = performance.now();
  const socket = connect({ host: '127.0.0.1', port, localAddress: from });
  let received = '';
  socket.on('data', (chunk) => (received += chunk.toString()));
  socket.on('error', () => {});
  const closed = new Promise<number>((resolve) => socket.once('close', () => resolve(performance.now() - started)));
  await new Promise((resolve) => socket.once('connect', resolve));
  return { socket, received: () => received, closed };
}

/** Writes `chunks` one every 100 ms while the socket is open. */
function trickle(socket: Socket, chunks: string[]) {
  const timer = setInterval(() => {
    const chunk = chunks.shift();
    if (chunk === undefined || socket.destroyed) return clearInterval(timer);
    socket.write(chunk);
  }, 100);
  socket.once('close', () => clearInterval(timer));
}

describe('slow clients', () => {
  it('closes a connection whose headers trickle in past HTTP_HEADERS_TIMEOUT_MS, answering 408', async () => {
    const c = await open('127.0.0.31');
    c.socket.write('GET /health HTTP/1.1\r\nHost: slow\r\n');
    trickle(c.socket, Array.from({ length: 200 }, (_, i) => `X-Slow-${i}: ${i}\r\n`));
    expect(await c.closed).toBeLessThan(5000);
    expect(c.received()).toMatch(/^HTTP\/1\.1 408/);
  });

  it('closes a connection whose body trickles in past HTTP_REQUEST_TIMEOUT_MS, answering 408', async () => {
    const c = await open('127.0.0.32');
    c.socket.write('POST /v3/auth/signin HTTP/1.1\r\nHost: slow\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n');
    trickle(c.socket, Array.from({ length: 1000 }, () => ' '));
    expect(await c.closed).toBeLessThan(6000);
    expect(c.received()).toMatch(/^HTTP\/1\.1 408/);
  });

  it('answers a connection past HTTP_MAX_CONNECTIONS_PER_ADDRESS 503 and closes it at once, while other addresses are served', async () => {
    const held = await Promise.all(Array.from({ length: 5 }, () => open('127.0.0.33')));
    const extra = await open('127.0.0.33');
    extra.socket.write('GET /health HTTP/1.1\r\nHost: extra\r\n\r\n');
    expect(await extra.closed).toBeLessThan(400);
    expect(extra.received()).toMatch(/^HTTP\/1\.1 503/);
    const other = await open('127.0.0.34');
    other.socket.write('GET /health HTTP/1.1\r\nHost: other\r\nConnection: close\r\n\r\n');
    await other.closed;
    expect(other.received()).toMatch(/^HTTP\/1\.1 200/);
    for (const c of held) c.socket.destroy();
    await Promise.all(held.map((c) => c.closed));
    const again = await open('127.0.0.33');
    again.socket.write('GET /health HTTP/1.1\r\nHost: again\r\nConnection: close\r\n\r\n');
    await again.closed;
    expect(again.received()).toMatch(/^HTTP\/1\.1 200/);
  });
});
