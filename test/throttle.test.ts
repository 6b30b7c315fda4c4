import jwt from 'jsonwebtoken';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createTestServer, type TestApp } from './helpers/app.js';
import { eventually } from './helpers/conversations.js';
import { productionMode } from './helpers/environment.js';
import { basic, fromAddress } from './helpers/from-address.js';

// The credential throttle, seen from clients at different addresses (127.0.0.x: all loopback).

const settings = {
  SIGNIN_MAX_FAILURES: '3',
  SIGNIN_LOCK_SECONDS: '1',
  SIGNIN_ADDRESS_MAX_FAILURES: '12',
  SIGNIN_ACCOUNT_MAX_FAILURES: '6',
};
const secret = 'test-secret-test-secret-test-secret-0123';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp(settings);
});
afterAll(() => t.close());

const at = (host: number) => fromAddress(t.baseUrl, `127.0.0.${host}`);
const signin = (host: number, email: string, password: string) => at(host).post('/v3/auth/signin', { body: { email, password } });
const stranger = () => `nobody.${Math.random().toString(36).slice(2)}@example.test`;

describe('every credential check goes through the throttle', () => {
  it('locks Basic authentication after the failures, even for the right password', async () => {
    const { email, password } = await t.newUser('basic');
    for (let i = 0; i < 3; i++) expect((await at(11).get('/v3/auth/me', { token: basic(email, 'wrong password') })).status).toBe(401);
    const res = await at(11).get('/v3/auth/me', { token: basic(email, password) });
    expect(res.status).toBe(429);
    expect(res.body.code).toBe('TOO_MANY_REQUESTS');
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('counts wrong passwords sent by Basic and by sign-in in one run', async () => {
    const { email, password } = await t.newUser('mixed');
    await signin(12, email, 'wrong password');
    await signin(12, email, 'wrong password');
    await at(12).get('/v3/auth/me', { token: basic(email, 'wrong password') });
    expect((await signin(12, email, password)).status).toBe(429);
  });

  it('answers 429 to forged bot tokens once they failed too often', async () => {
    const p = await t.seedProject();
    const bot = (await t.post(`/v3/${p.projectId}/bots`, { token: p.admin.token, body: { name: 'Forged' } })).body;
    const forged = `JWT ${jwt.sign({ id_project: p.projectId }, 'guessed secret', { audience: `bots/${bot._id}`, subject: `bot_${bot._id}` })}`;
    expect((await at(13).get('/v3/auth/me', { token: forged })).status).toBe(401);
    expect((await at(13).get('/v3/auth/me', { token: forged })).status).toBe(401);
    const locked = await at(13).get('/v3/auth/me', { token: forged });
    expect(locked.status).toBe(429);
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('still accepts the bot\'s own token from an address its forgeries locked', async () => {
    const p = await t.seedProject();
    const bot = (await t.post(`/v3/${p.projectId}/bots`, { token: p.admin.token, body: { name: 'Genuine' } })).body;
    const token = (await t.get(`/v3/${p.projectId}/bots/${bot._id}/jwt`, { token: p.admin.token })).body.token as string;
    const forged = `JWT ${jwt.sign({ id_project: p.projectId }, 'guessed secret', { audience: `bots/${bot._id}`, subject: `bot_${bot._id}` })}`;
    for (let i = 0; i < 3; i++) await at(14).get('/v3/auth/me', { token: forged });
    expect((await at(14).get('/v3/auth/me', { token: forged })).status).toBe(429);
    // Authenticated: a bot may only act in its requests, so this one is a 403, not a 401 or 429.
    expect((await at(14).get('/v3/auth/me', { token })).status).toBe(403);
  });

  it('counts tokens not signed with the server\'s key against the address budget', async () => {
    const { user } = await t.newUser('forged');
    const forged = () => `JWT ${jwt.sign({ anonymous: false, n: Math.random() }, 'another-key-another-key-another-key', { subject: user._id })}`;
    for (let i = 0; i < 11; i++) expect((await at(15).get('/v3/auth/me', { token: forged() })).status).toBe(401);
    expect((await at(15).get('/v3/auth/me', { token: forged() })).status).toBe(429);
  });

  it('does not count expired tokens, which were genuine', async () => {
    const { user } = await t.newUser('expired');
    const expired = jwt.sign({ anonymous: false, exp: Math.floor(Date.now() / 1000) - 10 }, secret, { subject: user._id });
    for (let i = 0; i < 15; i++) expect((await at(16).get('/v3/auth/me', { token: `JWT ${expired}` })).status).toBe(401);
  });
});

describe('the owner of an account is not locked out', () => {
  it('signs in at another address while an attacker\'s address is locked', async () => {
    const { email, password } = await t.newUser('owner');
    for (let i = 0; i < 4; i++) await signin(21, email, 'guess');
    expect((await signin(21, email, password)).status).toBe(429);
    expect((await signin(22, email, password)).status).toBe(200);
  });

  /** The `sp_device=...` pair of a sign-in answer's Set-Cookie, as a browser sends it back. */
  const deviceCookieOf = (res: { headers: Headers }) => /(sp_device=[^;]+)/.exec(res.headers.get('set-cookie') ?? '')?.[1];

  it('gives a browser that signed in a signed device cookie, HttpOnly and SameSite=Strict, over REST and GraphQL', async () => {
    const { email, password } = await t.newUser('cookie');
    const rest = await signin(27, email, password);
    expect(rest.headers.get('set-cookie')).toMatch(/^sp_device=[\w-]+\.[\w-]+; Path=\/; Max-Age=\d+; HttpOnly; SameSite=Strict/);
    const graphql = await at(27).post('/graphql', { body: { query: `mutation { signin(email: "${email}", password: "${password}") { token } }` } });
    expect(graphql.body.data.signin.token).toMatch(/^JWT /);
    expect(deviceCookieOf(graphql)).toBeDefined();
    expect((await signin(27, email, 'wrong')).headers.get('set-cookie')).toBeNull();
  });

  it('signs the owner in from a browser that signed in before while strangers at the same address locked the account there', async () => {
    const { email, password } = await t.newUser('office');
    const first = await signin(28, email, password);
    const cookie = deviceCookieOf(first)!;
    const other = await t.newUser('colleague');
    // Strangers behind the same address (an office, a carrier's NAT) guess the password (the lock, 1 s at first, doubles: 16 s).
    for (let i = 0; i < 7; i++) await signin(28, email, 'guess');
    expect((await signin(28, email, password)).status).toBe(429);
    // A forged cookie trusts nothing.
    const forged = await at(28).post('/v3/auth/signin', { body: { email, password }, headers: { cookie: cookie.replace(/\.[\w-]+$/, '.forged') } });
    expect(forged.status).toBe(429);
    const owner = await at(28).post('/v3/auth/signin', { body: { email, password }, headers: { cookie } });
    expect(owner.status).toBe(200);
    // Nor does a cookie for another account: a wrong password there is a plain failure.
    const borrowed = await at(28).post('/v3/auth/signin', { body: { email: other.email, password: 'guess' }, headers: { cookie } });
    expect(borrowed.status).toBe(401);
  });

  it('locks a trusted browser after its own failures, and only it', async () => {
    const { email, password } = await t.newUser('forgetful');
    const cookie = deviceCookieOf(await signin(29, email, password))!;
    const fromBrowser = (pass: string) => at(29).post('/v3/auth/signin', { body: { email, password: pass }, headers: { cookie } });
    for (let i = 0; i < 3; i++) expect((await fromBrowser('guess')).status).toBe(401);
    expect((await fromBrowser(password)).status).toBe(429);
    expect((await signin(29, email, password)).status).toBe(200);
  });

  it('signs in at an address used before when failures from everywhere spent the account\'s budget', async () => {
    const { email, password } = await t.newUser('targeted');
    expect((await signin(23, email, password)).status).toBe(200);
    for (const host of [24, 25]) for (let i = 0; i < 3; i++) await signin(host, email, 'guess');
    expect((await signin(26, email, password)).status).toBe(429);
    expect((await signin(23, email, password)).status).toBe(200);
  });

  it('signs in at an address that spent its budget on other accounts, having signed in there before', async () => {
    const regular = await t.newUser('regular');
    const newcomer = await t.newUser('newcomer');
    expect((await signin(31, regular.email, regular.password)).status).toBe(200);
    for (let i = 0; i < 12; i++) await signin(31, stranger(), 'guess');
    expect((await signin(31, newcomer.email, newcomer.password)).status).toBe(429);
    expect((await signin(31, regular.email, regular.password)).status).toBe(200);
  });

  it('locks longer at each failure after the first lock', async () => {
    const { email } = await t.newUser('progressive');
    for (let i = 0; i < 3; i++) await signin(41, email, 'guess');
    const first = await signin(41, email, 'guess');
    expect(first.status).toBe(429);
    expect(first.headers.get('retry-after')).toBe('1');
    // Tries while locked are refused unchecked; the first one after the lock is checked, and fails.
    const afterLock = await eventually(async () => {
      const res = await signin(41, email, 'guess');
      return res.status !== 429 && res;
    }, 5_000);
    expect(afterLock.status).toBe(401);
    const second = await signin(41, email, 'guess');
    expect(second.status).toBe(429);
    expect(second.headers.get('retry-after')).toBe('2');
  });

  it('ends a run of failures at a successful sign-in', async () => {
    const { email, password } = await t.newUser('forgetful');
    await signin(42, email, 'guess');
    await signin(42, email, 'guess');
    expect((await signin(42, email, password)).status).toBe(200);
    await signin(42, email, 'guess');
    await signin(42, email, 'guess');
    expect((await signin(42, email, password)).status).toBe(200);
  });
});

describe.skipIf(!productionMode)('several nodes', () => {
  it('locks an account at an address on every node once one node counted the failures', async () => {
    const other = await createTestServer(settings, { databaseUrl: t.infra.config.databaseUrl, prefix: t.infra.config.redisPrefix });
    try {
      const { email, password } = await t.newUser('cluster');
      for (let i = 0; i < 3; i++) await signin(51, email, 'guess');
      const res = await fromAddress(other.client.baseUrl, '127.0.0.51').post('/v3/auth/signin', { body: { email, password } });
      expect(res.status).toBe(429);
    } finally {
      await other.client.close();
    }
  });
});
