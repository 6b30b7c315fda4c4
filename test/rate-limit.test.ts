import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createTestServer, type TestApp } from './helpers/app.js';
import { eventually } from './helpers/conversations.js';
import { productionMode } from './helpers/environment.js';
import { fromAddress, type AddressClient } from './helpers/from-address.js';

// API-wide rate limits: per token, and per client address for calls without (verified)
// credentials. Each test calls from its own address (127.0.0.x: all loopback), so budgets stay apart.

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ RATE_LIMIT_REQUESTS: '5', RATE_LIMIT_ANONYMOUS_REQUESTS: '6' });
});
afterAll(() => t.close());

const at = (host: number, app: TestApp = t) => fromAddress(app.baseUrl, `127.0.0.${host}`);

/** Signs a new account up and in from `client` (two calls without credentials); returns its token. */
async function account(client: AddressClient) {
  const email = `rate.${Math.random().toString(36).slice(2)}@example.test`;
  const password = 'correct horse battery';
  await client.post('/v3/auth/signup', { body: { email, password } });
  return (await client.post('/v3/auth/signin', { body: { email, password } })).body.token as string;
}

/** A token that verified once on the server, so its calls are charged to it. */
async function verifiedToken(client: AddressClient) {
  const token = await account(client);
  expect((await client.get('/v3/auth/me', { token })).status).toBe(200);
  return token;
}

describe('per token', () => {
  it('counts down in RateLimit headers, then answers 429 TOO_MANY_REQUESTS with Retry-After', async () => {
    const client = at(61);
    const token = await verifiedToken(client);
    for (let remaining = 4; remaining >= 0; remaining--) {
      const res = await client.get('/v3/auth/me', { token });
      expect(res.status).toBe(200);
      expect(res.headers.get('ratelimit-limit')).toBe('5');
      expect(res.headers.get('ratelimit-remaining')).toBe(String(remaining));
      expect(Number(res.headers.get('ratelimit-reset'))).toBeGreaterThan(0);
    }
    const refused = await client.get('/v3/auth/me', { token });
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ success: false, code: 'TOO_MANY_REQUESTS' });
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
  });

  it('charges GraphQL over HTTP to the same budget as REST', async () => {
    const client = at(62);
    const token = await verifiedToken(client);
    const graphql = () => client.post('/graphql', { token, body: { query: '{ me { _id } }' } });
    for (let i = 0; i < 3; i++) expect((await client.get('/v3/auth/me', { token })).status).toBe(200);
    for (let i = 0; i < 2; i++) expect((await graphql()).status).toBe(200);
    const refused = await graphql();
    expect(refused.status).toBe(429);
    expect(refused.body.errors[0].extensions.code).toBe('TOO_MANY_REQUESTS');
  });
});

describe('per client address', () => {
  it('limits calls without credentials', async () => {
    const client = at(63);
    for (let i = 0; i < 6; i++) {
      const res = await client.get('/v3/auth/me');
      expect(res.status).toBe(401);
      expect(res.headers.get('ratelimit-limit')).toBe('6');
    }
    expect((await client.get('/v3/auth/me')).status).toBe(429);
  });

  it('charges made-up tokens to the address, not each to a budget of its own', async () => {
    const client = at(64);
    const madeUp = () => `Bearer made-up-${Math.random().toString(36).slice(2)}`;
    for (let i = 0; i < 6; i++) expect((await client.get('/v3/auth/me', { token: madeUp() })).status).toBe(401);
    expect((await client.get('/v3/auth/me', { token: madeUp() })).status).toBe(429);
  });

  it('limits requests that no direct lane serves, as yoga answers them', async () => {
    const client = at(65);
    for (let i = 0; i < 6; i++) {
      const res = await client.get('/graphql?query=%7B__typename%7D');
      expect(res.status).toBe(200);
      expect(res.headers.get('ratelimit-remaining')).toBe(String(5 - i));
    }
    const refused = await client.get('/graphql?query=%7B__typename%7D');
    expect(refused.status).toBe(429);
    expect(refused.body.errors[0].extensions.code).toBe('TOO_MANY_REQUESTS');
  });

  it('never limits /health and /ready', async () => {
    const client = at(66);
    for (let i = 0; i < 7; i++) await client.get('/v3/auth/me');
    for (let i = 0; i < 7; i++) {
      expect((await client.get('/health')).status).toBe(200);
      expect((await client.get('/ready')).status).toBe(200);
    }
  });
});

describe('windows', () => {
  let short: TestApp;
  beforeAll(async () => {
    short = await createTestApp({ RATE_LIMIT_ANONYMOUS_REQUESTS: '2', RATE_LIMIT_WINDOW_SECONDS: '1' });
  });
  afterAll(() => short.close());

  it('answers again once the window has ended', async () => {
    const client = at(67, short);
    await client.get('/v3/auth/me');
    await client.get('/v3/auth/me');
    expect((await client.get('/v3/auth/me')).status).toBe(429);
    const next = await eventually(async () => {
      const res = await client.get('/v3/auth/me');
      return res.status !== 429 && res;
    }, 3_000);
    expect(next.status).toBe(401);
  });
});

describe.skipIf(!productionMode)('several nodes', () => {
  it('share a token\'s budget', async () => {
    const limits = { RATE_LIMIT_REQUESTS: '50', RATE_LIMIT_ANONYMOUS_REQUESTS: '50' };
    const a = await createTestServer(limits);
    const b = await createTestServer(limits, { databaseUrl: a.config.databaseUrl, prefix: a.config.redisPrefix });
    try {
      const onA = at(68, a.client);
      const onB = at(68, b.client);
      const token = await verifiedToken(onA);
      expect((await onB.get('/v3/auth/me', { token })).status).toBe(200);
      for (let i = 0; i < 50; i++) await onA.get('/v3/auth/me', { token });
      // Alone, B would answer 50 more; it learns A's count within a sync interval (100 ms).
      let servedByB = 0;
      await eventually(async () => {
        const res = await onB.get('/v3/auth/me', { token });
        if (res.status === 200) servedByB++;
        return res.status === 429;
      }, 5_000);
      expect(servedByB).toBeLessThan(25);
    } finally {
      await b.client.close();
      await a.client.close();
    }
  });
});
