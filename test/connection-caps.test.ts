import { connect as tcpConnect, type Socket } from 'node:net';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, testEnvironment, type SeededProject, type TestApp } from './helpers/app.js';
import { startServer } from '../src/server.js';
import { fromAddress } from './helpers/from-address.js';

// Many people behind one address (an office's NAT, a school, a mobile carrier) are many clients:
// the caps that stop one hostile client from holding the node are counted per account for
// websockets, and a connection over the per-address cap is answered (503 with a body, or the
// address's idle connection closed to make room), never reset. Each test uses its own loopback
// address (127.0.0.0/8 is all this machine), so their counts do not meet.

let node: Awaited<ReturnType<typeof createTestServer>>;
let t: TestApp;
let p: SeededProject;
let url: string;
let port: number;

beforeAll(async () => {
  // The defaults, but for a small cap of sockets per account and a small rate budget for the
  // budget test (no other test here comes near either).
  node = await createTestServer({ WS_MAX_SOCKETS_PER_ACCOUNT: '20', RATE_LIMIT_REQUESTS: '120', RATE_LIMIT_ANONYMOUS_REQUESTS: '5000' });
  t = node.client;
  url = node.server.url;
  port = Number(new URL(url).port);
  p = await t.seedProject();
});
afterAll(() => t.close());

interface SocketOutcome {
  acked: boolean;
  /** The HTTP answer to the upgrade, when the server refused it. */
  refused?: { status: number; body: any; retryAfter?: string };
  closed?: { code: number; reason: string };
  error?: string;
}

interface OpenSocket {
  ws: WebSocket;
  outcome: Promise<SocketOutcome>;
}

/** A graphql-ws connection from `from`: settles when acknowledged, refused, closed or failed. */
function openSocket(from: string, token?: string): OpenSocket {
  const ws = new WebSocket(`${url.replace(/^http/, 'ws')}/graphql`, 'graphql-transport-ws', { localAddress: from });
  const outcome = new Promise<SocketOutcome>((resolve) => {
    ws.on('open', () => ws.send(JSON.stringify({ type: 'connection_init', payload: token ? { authorization: token } : {} })));
    ws.on('message', (data) => {
      if (JSON.parse(String(data)).type === 'connection_ack') resolve({ acked: true });
    });
    ws.on('unexpected-response', (_req, res) => {
      let text = '';
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => resolve({ acked: false, refused: { status: res.statusCode ?? 0, body: JSON.parse(text), retryAfter: res.headers['retry-after'] as string | undefined } }));
    });
    ws.on('close', (code, reason) => resolve({ acked: false, closed: { code, reason: String(reason) } }));
    ws.on('error', (error) => resolve({ acked: false, error: (error as NodeJS.ErrnoException).code ?? error.message }));
  });
  return { ws, outcome };
}

async function visitorTokens(count: number): Promise<string[]> {
  const tokens: string[] = [];
  for (let i = 0; i < count; i += 50) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(50, count - i) }, (_, j) =>
        t.post('/v3/auth/signinAnonymously', { body: { id_project: p.projectId, firstname: `Visitor ${i + j}` } }),
      ),
    );
    tokens.push(...batch.map((r) => r.body.token as string));
  }
  return tokens;
}

describe('connection caps: many clients behind one address', () => {
  it('holds 300 visitors’ websockets from one address while an agent signs in and the widget loads from it', async () => {
    const from = '127.0.0.61';
    const tokens = await visitorTokens(300);
    const sockets = tokens.map((token) => openSocket(from, token));
    try {
      const office = fromAddress(url, from);
      const [signin, widget] = await Promise.all([
        office.post('/v3/auth/signin', { body: { email: p.agent.email, password: p.agent.password } }),
        office.get(`/v3/${p.projectId}/widgets`),
      ]);
      const outcomes = await Promise.all(sockets.map((s) => s.outcome));
      const notAcked = outcomes.filter((o) => !o.acked);
      expect(notAcked, JSON.stringify(notAcked.slice(0, 3))).toEqual([]);
      expect(signin.status).toBe(200);
      expect(widget.status).toBe(200);
      // And while all 300 are open.
      expect((await office.get(`/v3/${p.projectId}/widgets`)).status).toBe(200);
    } finally {
      for (const s of sockets) s.ws.terminate();
    }
  });

  it('closes an account’s socket past WS_MAX_SOCKETS_PER_ACCOUNT with 4429 and a reason, keeping its other sockets', async () => {
    const [token] = await visitorTokens(1);
    const sockets = Array.from({ length: 20 }, () => openSocket('127.0.0.62', token));
    try {
      expect((await Promise.all(sockets.map((s) => s.outcome))).every((o) => o.acked)).toBe(true);
      const extra = openSocket('127.0.0.62', token);
      sockets.push(extra);
      const outcome = await extra.outcome;
      expect(outcome.closed?.code).toBe(4429);
      expect(outcome.closed?.reason).toMatch(/at most 20 websockets/);
      expect(sockets.slice(0, 20).every((s) => s.ws.readyState === WebSocket.OPEN)).toBe(true);
      // Another account from the same address is not affected.
      const [other] = await visitorTokens(1);
      const second = openSocket('127.0.0.62', other);
      sockets.push(second);
      expect((await second.outcome).acked).toBe(true);
    } finally {
      for (const s of sockets) s.ws.terminate();
    }
  });

  it('frees an account’s place when one of its sockets closes', async () => {
    const [token] = await visitorTokens(1);
    const sockets = Array.from({ length: 20 }, () => openSocket('127.0.0.63', token));
    try {
      await Promise.all(sockets.map((s) => s.outcome));
      // Full: one more is refused...
      const refused = openSocket('127.0.0.63', token);
      sockets.push(refused);
      expect((await refused.outcome).closed?.code).toBe(4429);
      // ...until one of the twenty closes.
      const closed = new Promise((resolve) => sockets[0].ws.once('close', resolve));
      sockets[0].ws.close();
      await closed;
      const again = openSocket('127.0.0.63', token);
      sockets.push(again);
      await expect.poll(async () => (await again.outcome).acked, { timeout: 5000 }).toBe(true);
    } finally {
      for (const s of sockets) s.ws.terminate();
    }
  });
});

describe('one rate budget per account', () => {
  it('charges every token of one account to one budget: two sign-ins do not double it', async () => {
    const account = await t.newUser('budget');
    const second = await t.post('/v3/auth/signin', { body: { email: account.email, password: account.password } });
    expect(second.status).toBe(200);
    const tokens = [account.token, second.body.token as string];
    expect(tokens[1]).not.toBe(tokens[0]);
    let answered = 0;
    let refused = 0;
    for (let i = 0; i < 100; i++) {
      const replies = await Promise.all(tokens.map((token) => t.get('/v3/auth/me', { token })));
      for (const r of replies) r.status === 429 ? refused++ : answered++;
    }
    // 120 per window for the account (both tokens together), not 120 for each; each token's
    // first call is charged to the address (it is not known valid until it has verified).
    expect(answered).toBeLessThanOrEqual(122);
    expect(refused).toBeGreaterThanOrEqual(78);
  });

  it('charges each websocket connection to the account’s budget, and refuses one past it with 4429', async () => {
    const account = await t.newUser('sockets');
    const sockets: OpenSocket[] = [];
    try {
      // 120 per window: the 121st connection of the account is refused.
      let closed: SocketOutcome | undefined;
      for (let i = 0; i < 140 && !closed; i++) {
        const s = openSocket('127.0.0.64', account.token);
        sockets.push(s);
        const outcome = await s.outcome;
        s.ws.terminate();
        if (!outcome.acked) closed = outcome;
      }
      expect(closed?.closed?.code).toBe(4429);
      expect(closed?.closed?.reason).toMatch(/rate limit exceeded/);
      expect(sockets.length).toBeLessThanOrEqual(121);
      // The same account's HTTP calls are out of budget too.
      expect((await t.get('/v3/auth/me', { token: account.token })).status).toBe(429);
    } finally {
      for (const s of sockets) s.ws.terminate();
    }
  });
});

describe('the per-address connection cap answers', () => {
  let capped: Awaited<ReturnType<typeof createTestServer>>;
  let cappedPort: number;
  beforeAll(async () => {
    capped = await createTestServer({ HTTP_MAX_CONNECTIONS_PER_ADDRESS: '4', HTTP_HEADERS_TIMEOUT_MS: '3000' });
    cappedPort = Number(new URL(capped.server.url).port);
  });
  afterAll(() => capped.client.close());

  function raw(from: string) {
    const socket: Socket = tcpConnect({ host: '127.0.0.1', port: cappedPort, localAddress: from });
    let received = '';
    socket.on('data', (chunk) => (received += chunk.toString()));
    socket.on('error', () => {});
    const closed = new Promise<string>((resolve) => socket.once('close', () => resolve(received)));
    const connected = new Promise((resolve) => socket.once('connect', resolve));
    return { socket, closed, connected, received: () => received };
  }

  it('answers a connection past the cap 503 with a JSON body and Retry-After when the address’s connections are all busy', async () => {
    const held = Array.from({ length: 4 }, () => raw('127.0.0.65'));
    await Promise.all(held.map((c) => c.connected));
    // Each sends half a request: busy, not idle.
    for (const c of held) c.socket.write('GET /health HTTP/1.1\r\nHost: x\r\n');
    const extra = raw('127.0.0.65');
    await extra.connected;
    extra.socket.write('GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    const answer = await extra.closed;
    expect(answer).toMatch(/^HTTP\/1\.1 503/);
    expect(answer).toMatch(/\r\nretry-after: 1\r\n/i);
    const body = JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4));
    expect(body).toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
    expect(body.message).toMatch(/at most 4 connections/);
    expect(body.request_id).toEqual(expect.any(String));
    for (const c of held) c.socket.destroy();
  });

  it('closes the address’s oldest idle keep-alive connection to make room for a new one', async () => {
    const held = Array.from({ length: 4 }, () => raw('127.0.0.66'));
    await Promise.all(held.map((c) => c.connected));
    // Each is served once and kept alive: idle.
    for (const c of held) c.socket.write('GET /health HTTP/1.1\r\nHost: x\r\n\r\n');
    await expect.poll(() => held.every((c) => c.received().includes('HTTP/1.1 200')), { timeout: 5000 }).toBe(true);
    const extra = raw('127.0.0.66');
    await extra.connected;
    extra.socket.write('GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    expect(await extra.closed).toMatch(/^HTTP\/1\.1 200/);
    await held[0].closed;
    expect(held.slice(1).every((c) => !c.socket.destroyed)).toBe(true);
    for (const c of held) c.socket.destroy();
  });
});

describe('keep-alive', () => {
  it('keeps an idle connection 65 s by default, longer than clients and load balancers keep theirs, so the node never closes one a client is reusing', async () => {
    const environment = await testEnvironment();
    const started = await startServer(environment.config, { inMemory: true });
    try {
      const res = await fetch(`${started.url}/health`);
      await res.text();
      expect(res.headers.get('keep-alive')).toBe('timeout=65');
    } finally {
      await started.close();
      await environment.dispose();
    }
  });
});
