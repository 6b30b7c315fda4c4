import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, type SeededProject, type TestApp } from './helpers/app.js';
import { eventually } from './helpers/conversations.js';
import { productionMode } from './helpers/environment.js';
import { errorCodes, rawSocket, type RawSocket } from './helpers/raw-socket.js';

// Signing out: POST /v3/auth/signout ends the calling token, /signout/all every token of the
// account. Cached verifications live for ten minutes here, so only the sign-out itself can explain
// a token refused within a second; in production mode a second node shares the database and Redis.

interface Node {
  client: TestApp;
  url: string;
}

let a: Node;
let b: Node;
let p: SeededProject;
const closers: Array<() => unknown> = [];

beforeAll(async () => {
  const overrides = { AUTH_CACHE_MS: '600000', PROJECT_CACHE_MS: '600000' };
  const first = await createTestServer(overrides);
  a = { client: first.client, url: first.server.url };
  if (productionMode) {
    const second = await createTestServer(overrides, { databaseUrl: first.config.databaseUrl, prefix: first.config.redisPrefix });
    b = { client: second.client, url: second.server.url };
  } else {
    b = a;
  }
  p = await a.client.seedProject('Sessions');
});
afterAll(async () => {
  for (const close of closers) await close();
  if (b !== a) await b.client.close();
  await a.client.close();
});

/**
 * How long a sign-out may take to reach every node: the bus delivers it in milliseconds, but a CI
 * machine running the whole suite on two cores can hold a probe up for most of a second.
 */
const propagation = 3000;

const me = (node: Node, token: string) => node.client.get('/v3/auth/me', { token });
const gqlMe = (node: Node, token: string) => node.client.gql('{ me { id } }', {}, token);

/** Two sessions of one new account, each already seen (cached) by both nodes. */
async function twoSessions() {
  const account = await a.client.newUser('sessions');
  await a.client.addMember(p.projectId, p.owner.token, account, 'agent');
  const second = await a.client.post('/v3/auth/signin', { body: { email: account.email, password: account.password } });
  const tokens = [account.token, second.body.token as string];
  for (const token of tokens) for (const node of [a, b]) expect((await me(node, token)).status).toBe(200);
  return { account, tokens };
}

async function liveSocket(node: Node, token: string): Promise<RawSocket> {
  const account = await node.client.get('/v3/auth/me', { token });
  const socket = await rawSocket(node.url, token);
  closers.push(() => socket.close());
  socket.subscribe('me', 'subscription($p: String!) { projectEvents(project_id: $p) { seq } }', { p: p.projectId });
  // Live once it delivered an event.
  const pokes: Promise<unknown>[] = [];
  const poke = setInterval(() => pokes.push(a.client.put(`/v3/${p.projectId}/project_users/`, { token: p.admin.token, body: { attributes: { at: Date.now() } } })), 50);
  await socket.waitFor((m) => m.id === 'me' && m.type === 'next').finally(() => clearInterval(poke));
  await Promise.all(pokes);
  expect(account.status).toBe(200);
  return socket;
}

describe('POST /v3/auth/signout', () => {
  it('ends the calling token on every node within a second, over REST and GraphQL, and leaves the other session', async () => {
    const { tokens } = await twoSessions();
    const res = await a.client.post('/v3/auth/signout', { token: tokens[0] });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true });
    const started = Date.now();
    await eventually(async () => (await me(b, tokens[0])).status === 401, propagation);
    expect(Date.now() - started).toBeLessThan(propagation);
    const refused = await me(a, tokens[0]);
    expect(refused.status).toBe(401);
    expect(refused.body).toMatchObject({ code: 'UNAUTHENTICATED', message: expect.stringContaining('signed out') });
    expect(refused.body.request_id).toEqual(expect.any(String));
    expect((await gqlMe(b, tokens[0])).body.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    expect((await me(a, tokens[1])).status).toBe(200);
    expect((await me(b, tokens[1])).status).toBe(200);
  });

  it('ends the live subscriptions of that token, on the node that holds them', async () => {
    const { tokens } = await twoSessions();
    const socket = await liveSocket(a, tokens[0]);
    const other = await liveSocket(a, tokens[1]);
    await b.client.post('/v3/auth/signout', { token: tokens[0] });
    const end = await socket.waitFor((m) => m.id === 'me' && (m.type === 'error' || !!m.payload?.errors), propagation);
    expect(errorCodes(end)).toEqual(['UNAUTHENTICATED']);
    expect(other.messages.filter((m) => m.type === 'error' || m.payload?.errors)).toEqual([]);
  });

  it('is a GraphQL mutation as well (signOut)', async () => {
    const { tokens } = await twoSessions();
    const res = await a.client.gql('mutation { signOut { success } }', {}, tokens[0]);
    expect(res.body.data.signOut).toEqual({ success: true });
    await eventually(async () => (await me(b, tokens[0])).status === 401, propagation);
  });

  it('answers 401 without credentials and 400 naming authorization for Basic credentials', async () => {
    expect((await a.client.post('/v3/auth/signout')).status).toBe(401);
    const account = await a.client.newUser('basic');
    const basic = `Basic ${Buffer.from(`${account.email}:${account.password}`).toString('base64')}`;
    const res = await a.client.post('/v3/auth/signout', { token: basic });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'BAD_USER_INPUT', field: 'authorization' });
  });

  it('refuses a project API key (403): keys are revoked where they were made', async () => {
    const key = await a.client.post(`/v3/${p.projectId}/api_keys`, { token: p.owner.token, body: { name: 'ci', role: 'agent' } });
    expect(key.status).toBe(200);
    const res = await a.client.post('/v3/auth/signout', { token: `Bearer ${key.body.key}` });
    expect(res.status).toBe(403);
  });
});

describe('POST /v3/auth/signout/all', () => {
  it('ends every token of the account on every node within seconds; signing in again works', async () => {
    const { account, tokens } = await twoSessions();
    const res = await b.client.post('/v3/auth/signout/all', { token: tokens[1] });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true });
    for (const node of [a, b]) for (const token of tokens) await eventually(async () => (await me(node, token)).status === 401, propagation);
    expect((await gqlMe(a, tokens[0])).body.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    const again = await a.client.post('/v3/auth/signin', { body: { email: account.email, password: account.password } });
    expect((await me(b, again.body.token)).status).toBe(200);
  });

  it('ends the live subscriptions of every session (signOutEverywhere over GraphQL)', async () => {
    const { tokens } = await twoSessions();
    const sockets = [await liveSocket(a, tokens[0]), await liveSocket(b, tokens[1])];
    const res = await a.client.gql('mutation { signOutEverywhere { success } }', {}, tokens[0]);
    expect(res.body.data.signOutEverywhere).toEqual({ success: true });
    for (const socket of sockets) {
      const end = await socket.waitFor((m) => m.id === 'me' && (m.type === 'error' || !!m.payload?.errors), propagation);
      expect(errorCodes(end)).toEqual(['UNAUTHENTICATED']);
    }
  });
});
