import jwt from 'jsonwebtoken';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers/app.js';
import { fastestTimeRatio, similar } from './helpers/timing.js';
import { withoutRequestId } from './helpers/errors.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ SIGNIN_MAX_FAILURES: '3' });
});
afterAll(() => t.close());

const secret = 'test-secret-test-secret-test-secret-0123';

describe('POST /v3/auth/signup', () => {
  it('creates an account and never returns the password', async () => {
    const res = await t.post('/v3/auth/signup', {
      body: { email: 'Ann@Example.test', password: 'long enough pw', firstname: 'Ann', lastname: 'Lee' },
    });
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    expect(res.body.user).toMatchObject({ email: 'ann@example.test', firstname: 'Ann', lastname: 'Lee' });
    expect(res.body.user._id).toBe(res.body.user.id);
    expect(res.body.user.__v).toBe(0);
    expect(JSON.stringify(res.body)).not.toMatch(/password|long enough pw/);
  });

  it('answers 409 for an e-mail already registered', async () => {
    const body = { email: 'dup@example.test', password: 'long enough pw' };
    await t.post('/v3/auth/signup', { body });
    const res = await t.post('/v3/auth/signup', { body });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ success: false, code: 'CONFLICT', field: 'email' });
  });

  it('answers 400 naming an invalid e-mail', async () => {
    const res = await t.post('/v3/auth/signup', { body: { email: 'not-an-email', password: 'long enough pw' } });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'BAD_USER_INPUT', field: 'email' });
    expect(res.body.message).toMatch(/email/);
  });

  it('answers 400 naming a missing password', async () => {
    const res = await t.post('/v3/auth/signup', { body: { email: 'nopw@example.test' } });
    expect(res.status).toBe(400);
    expect(res.body.field).toBe('password');
  });

  it('answers 400 for a body that is not JSON', async () => {
    const res = await t.post('/v3/auth/signup', { body: '{not json', headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(400);
    expect(res.body.success).toBe(false);
  });
});

describe('POST /v3/auth/signup timing', () => {
  // bcrypt at the cost of 8 (not the suite's 4) makes the hash most of a sign-up, as it is in
  // production (10), so what the comparison sees is whether a registered e-mail skips it.
  let slow: TestApp;
  beforeAll(async () => {
    slow = await createTestApp({ BCRYPT_ROUNDS: '8' });
  });
  afterAll(() => slow.close());

  it('answers a registered e-mail in about the time a new one takes (within 30%)', async () => {
    const stamp = Date.now();
    const body = (who: string, i: number) => ({ email: `${who}.${stamp}.${i}@example.test`, password: 'long enough pw' });
    for (let i = 0; i < 9; i++) await slow.post('/v3/auth/signup', { body: body('registered', i) });
    const ratio = await fastestTimeRatio(
      async (i) => expect((await slow.post('/v3/auth/signup', { body: body('registered', i) })).status).toBe(409),
      async (i) => expect((await slow.post('/v3/auth/signup', { body: body('new', i) })).status).toBe(200),
    );
    expect(similar(ratio), `registered / new: ${ratio.toFixed(2)}`).toBe(true);
  });
});

describe('POST /v3/auth/signin', () => {
  it('returns a JWT-prefixed token that authenticates later calls', async () => {
    const { token } = await t.newUser('signin');
    expect(token).toMatch(/^JWT ey/);
    const me = await t.get('/v3/auth/me', { token });
    expect(me.status).toBe(200);
  });

  it('gives the same 401 for an unknown e-mail and for a wrong password', async () => {
    const { email } = await t.newUser('wrongpw');
    const wrongPassword = await t.post('/v3/auth/signin', { body: { email, password: 'nope nope nope' } });
    const unknownEmail = await t.post('/v3/auth/signin', { body: { email: 'nobody@example.test', password: 'nope nope nope' } });
    expect(wrongPassword.status).toBe(401);
    expect(unknownEmail.status).toBe(401);
    expect(withoutRequestId(wrongPassword.body)).toEqual(withoutRequestId(unknownEmail.body));
  });

  it('throttles repeated failures for one e-mail from one address with 429 and Retry-After', async () => {
    const { email, password } = await t.newUser('throttled');
    for (let i = 0; i < 3; i++) await t.post('/v3/auth/signin', { body: { email, password: 'wrong password' } });
    const res = await t.post('/v3/auth/signin', { body: { email, password } });
    expect(res.status).toBe(429);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});

describe('POST /v3/auth/signinAnonymously', () => {
  it('creates a guest user and a guest teammate in the project', async () => {
    const { token } = await t.newUser('anonowner');
    const project = await t.post('/v3/projects', { token, body: { name: 'Anon' } });
    const res = await t.post('/v3/auth/signinAnonymously', { body: { id_project: project.body._id, firstname: 'Visitor' } });
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    expect(res.body.token).toMatch(/^JWT /);
    expect(res.body.user).toMatchObject({ firstname: 'Visitor', fullName: 'Visitor' });
    expect(res.body.user._id).toBe(res.body.user.id);
    const guest = await t.services.teammates.getByUser(project.body._id, res.body.user._id);
    expect(guest.role).toBe('guest');
    expect(guest.isAuthenticated).toBe(false);
    const isopen = await t.get(`/v3/projects/${project.body._id}/isopen`, { token: res.body.token });
    expect(isopen.status).toBe(200);
  });

  it('answers 404 for an unknown project', async () => {
    const res = await t.post('/v3/auth/signinAnonymously', { body: { id_project: 'missing', firstname: 'V' } });
    expect(res.status).toBe(404);
  });
});

describe('Authorization header', () => {
  it('answers 401 without credentials', async () => {
    const res = await t.get('/v3/projects');
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('UNAUTHENTICATED');
  });

  it('accepts Basic e-mail:password', async () => {
    const { email, password } = await t.newUser('basic');
    const basic = `Basic ${Buffer.from(`${email}:${password}`).toString('base64')}`;
    expect((await t.get('/v3/projects', { token: basic })).status).toBe(200);
  });

  it('rejects Basic with a wrong password', async () => {
    const { email } = await t.newUser('basicwrong');
    const basic = `Basic ${Buffer.from(`${email}:wrong`).toString('base64')}`;
    expect((await t.get('/v3/projects', { token: basic })).status).toBe(401);
  });

  it('accepts Bearer as well as JWT', async () => {
    const { token } = await t.newUser('bearer');
    expect((await t.get('/v3/projects', { token: token.replace(/^JWT /, 'Bearer ') })).status).toBe(200);
  });

  it('rejects an expired token', async () => {
    const { user } = await t.newUser('expired');
    const expired = jwt.sign({ anonymous: false, exp: Math.floor(Date.now() / 1000) - 10 }, secret, { subject: user._id });
    const res = await t.get('/v3/projects', { token: `JWT ${expired}` });
    expect(res.status).toBe(401);
    expect(res.body.message).toMatch(/expired/);
  });

  it('rejects an unsigned (alg none) token', async () => {
    const { user } = await t.newUser('none');
    const unsigned = jwt.sign({ anonymous: false }, null as unknown as string, { algorithm: 'none', subject: user._id });
    expect((await t.get('/v3/projects', { token: `JWT ${unsigned}` })).status).toBe(401);
  });

  it('rejects a token signed with another key', async () => {
    const { user } = await t.newUser('otherkey');
    const forged = jwt.sign({ anonymous: false }, 'another-secret-another-secret-another', { subject: user._id, expiresIn: 60 });
    expect((await t.get('/v3/projects', { token: `JWT ${forged}` })).status).toBe(401);
  });

  it('rejects the token of a deleted user', async () => {
    const { token, user } = await t.newUser('deleted');
    await t.services.accounts.deleteAccount(user._id);
    expect((await t.get('/v3/projects', { token })).status).toBe(401);
  });

  it('issues tokens that expire after the configured lifetime', async () => {
    const { token } = await t.newUser('lifetime');
    const claims = jwt.decode(token.replace(/^JWT /, '')) as jwt.JwtPayload;
    expect(claims.exp! - claims.iat!).toBe(7 * 24 * 3600);
  });
});
