import jwt from 'jsonwebtoken';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type SeededProject, type TestApp } from './helpers/app.js';
import { sdkClient, TiledeskClient } from './helpers/sdk.js';

// Sign-in for users of a project's own site: the site signs a token with the project's secret
// (POST /v3/:project_id/keys/generate) and the official SDK exchanges it for one of ours.

interface SignInResult {
  success: boolean;
  token: string;
  user: { _id: string; firstname: string; lastname: string; email: string | null; externalId: string };
}

let t: TestApp;
let p: SeededProject;
let secret: string;
beforeAll(async () => {
  t = await createTestApp();
  p = await t.seedProject();
  secret = (await t.post(`/v3/${p.projectId}/keys/generate`, { token: p.admin.token })).body.jwtSecret;
});
afterAll(() => t.close());

const audience = (projectId: string) => `https://tiledesk.com/projects/${projectId}`;
let externalIds = 0;
const externalUser = (overrides: Record<string, unknown> = {}) => ({
  _id: `site-user-${++externalIds}`,
  firstname: 'John',
  lastname: 'Wick',
  email: 'john@wick.test',
  ...overrides,
});

/** A custom token as a site makes it: the project's secret, its audience, subject userexternal. */
function customToken(key: string, payload: object = externalUser(), options: jwt.SignOptions = {}) {
  return `JWT ${jwt.sign(payload, key, { subject: 'userexternal', audience: audience(p.projectId), ...options })}`;
}

function customAuthentication(token: string) {
  return new Promise<SignInResult>((resolve, reject) =>
    TiledeskClient.customAuthentication(token, 'any-api-key', { APIURL: `${t.baseUrl}/v3` }, (err, result) =>
      err ? reject(err) : resolve(result as SignInResult),
    ),
  );
}

/** The teammate record an admin of the project reads for a user. */
const teammateOf = async (userId: string) =>
  (await t.get(`/v3/${p.projectId}/project_users/users/${userId}`, { token: p.admin.token })).body[0];

const signIn = (token?: string) => t.post('/v3/auth/signinWithCustomToken', { token });

/** A project of a new owner, with no secret generated yet. */
async function ownProject(name: string) {
  const owner = await t.newUser('site');
  const created = await t.post('/v3/projects', { token: owner.token, body: { name } });
  return { projectId: created.body._id as string, token: owner.token };
}

describe('POST /v3/:project_id/keys/generate', () => {
  it('gives an admin a strong random secret', async () => {
    const { projectId, token } = await ownProject('Keys');
    const res = await t.post(`/v3/${projectId}/keys/generate`, { token });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['jwtSecret']);
    expect(res.body.jwtSecret.length).toBeGreaterThanOrEqual(43);
  });

  it('gives a new secret on every call', async () => {
    const { projectId, token } = await ownProject('Rotate');
    const first = await t.post(`/v3/${projectId}/keys/generate`, { token });
    const second = await t.post(`/v3/${projectId}/keys/generate`, { token });
    expect(second.body.jwtSecret).not.toBe(first.body.jwtSecret);
  });

  it('refuses an agent with 403', async () => {
    const res = await t.post(`/v3/${p.projectId}/keys/generate`, { token: p.agent.token });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('FORBIDDEN');
  });
});

describe('POST /v3/auth/signinWithCustomToken', () => {
  it('signs a site\'s user in through the SDK\'s customAuthentication', async () => {
    const result = await customAuthentication(customToken(secret, externalUser({ _id: 'sdk-user' })));
    expect(result.success).toBe(true);
    expect(result.token).toMatch(/^JWT ey/);
    expect(result.user).toMatchObject({ firstname: 'John', lastname: 'Wick', email: 'john@wick.test', externalId: 'sdk-user' });
  });

  it('returns a token that works for a call the user role may make', async () => {
    const result = await customAuthentication(customToken(secret));
    const client = sdkClient(t.baseUrl, p.projectId, result.token);
    const agents = await (client.getProjectAvailableAgents as () => Promise<Array<{ id: string }>>)();
    expect(agents.map((a) => a.id)).toContain(p.agent.userId);
  });

  it('makes the user a strongly authenticated teammate with role user', async () => {
    const result = await customAuthentication(customToken(secret));
    expect(await teammateOf(result.user._id)).toMatchObject({ role: 'user', isAuthenticated: true });
    const projects = await t.get('/v3/projects', { token: result.token });
    expect(projects.body.map((m: { id_project: { _id: string } }) => m.id_project._id)).toEqual([p.projectId]);
  });

  it('finds the same user on a later sign-in and takes the new names and e-mail', async () => {
    const first = await customAuthentication(customToken(secret, externalUser({ _id: 'returning' })));
    const again = await customAuthentication(
      customToken(secret, externalUser({ _id: 'returning', firstname: 'Jonathan', lastname: 'Wick Jr', email: 'jw@wick.test' })),
    );
    expect(again.user._id).toBe(first.user._id);
    expect(again.user).toMatchObject({ firstname: 'Jonathan', lastname: 'Wick Jr', email: 'jw@wick.test' });
    const teammate = await teammateOf(first.user._id);
    expect(teammate.id_user).toMatchObject({ firstname: 'Jonathan', lastname: 'Wick Jr' });
    expect(teammate.attributes).toMatchObject({ email: 'jw@wick.test' });
  });

  it('keeps the stored names and e-mail when a later token leaves them out', async () => {
    const first = await customAuthentication(customToken(secret, externalUser({ _id: 'partial' })));
    const again = await customAuthentication(customToken(secret, { _id: 'partial' }));
    expect(again.user).toMatchObject({ _id: first.user._id, firstname: 'John', lastname: 'Wick', email: 'john@wick.test' });
  });

  it('creates one user when two first sign-ins arrive at once', async () => {
    const token = customToken(secret, externalUser({ _id: 'simultaneous' }));
    const [a, b] = await Promise.all([signIn(token), signIn(token)]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(a.body.user._id).toBe(b.body.user._id);
  });

  it('leaves the e-mail free for an account of its own: the site\'s word holds in its project only', async () => {
    await customAuthentication(customToken(secret, externalUser({ email: 'claimed@example.test' })));
    const signup = await t.post('/v3/auth/signup', { body: { email: 'claimed@example.test', password: 'long enough pw' } });
    expect(signup.status).toBe(200);
  });

  it.each([['application/json'], ['text/plain'], ['application/x-www-form-urlencoded']])(
    'answers 200 to a call with no body and content type %s',
    async (contentType) => {
      const res = await t.post('/v3/auth/signinWithCustomToken', {
        token: customToken(secret),
        headers: { 'content-type': contentType },
      });
      expect(res.status).toBe(200);
      expect(res.body.success).toBe(true);
    },
  );

  it('keeps the same _id signed by another project\'s secret a different user', async () => {
    const other = await t.seedProject('Other site');
    const otherSecret = (await t.post(`/v3/${other.projectId}/keys/generate`, { token: other.owner.token })).body.jwtSecret;
    const here = await customAuthentication(customToken(secret, externalUser({ _id: 'shared-id' })));
    const there = await customAuthentication(
      customToken(otherSecret, externalUser({ _id: 'shared-id' }), { audience: audience(other.projectId) }),
    );
    expect(there.user._id).not.toBe(here.user._id);
    expect((await t.get(`/v3/projects/${p.projectId}/users/availables`, { token: there.token })).status).toBe(403);
  });

  it('does not sign in with another project\'s secret for this project\'s audience', async () => {
    const other = await ownProject('Foreign key');
    const otherSecret = (await t.post(`/v3/${other.projectId}/keys/generate`, { token: other.token })).body.jwtSecret;
    const res = await signIn(customToken(otherSecret));
    expect(res.status).toBe(401);
  });

  it('refuses a token signed with the secret before rotation with 401', async () => {
    const { projectId, token } = await ownProject('Rotated');
    const old = (await t.post(`/v3/${projectId}/keys/generate`, { token })).body.jwtSecret;
    await t.post(`/v3/${projectId}/keys/generate`, { token });
    const res = await signIn(customToken(old, externalUser(), { audience: audience(projectId) }));
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('UNAUTHENTICATED');
  });

  it('answers 401 for a token signed with another key', async () => {
    const res = await signIn(customToken('not-the-project-secret-not-the-project-secret'));
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ success: false, code: 'UNAUTHENTICATED' });
  });

  it('answers 401 for an expired token', async () => {
    // Past the clock-skew tolerance (30 s by default).
    const res = await signIn(customToken(secret, { ...externalUser(), exp: Math.floor(Date.now() / 1000) - 120 }));
    expect(res.status).toBe(401);
    expect(res.body.message).toMatch(/expired/);
  });

  it('answers 401 while the project has no secret', async () => {
    const { projectId } = await ownProject('No secret');
    const res = await signIn(customToken('a-secret-the-project-never-had-0123456789', externalUser(), { audience: audience(projectId) }));
    expect(res.status).toBe(401);
  });

  it('answers 401 without an Authorization header', async () => {
    expect((await signIn()).status).toBe(401);
  });

  it('answers 401 for a value that is no JWT', async () => {
    expect((await signIn('JWT not-a-token')).status).toBe(401);
  });

  it.each([
    ['no aud', { audience: undefined }, 'aud'],
    ['an aud of another form', { audience: 'https://example.test/projects/x' }, 'aud'],
    ['an aud naming no project', { audience: 'https://tiledesk.com/projects/no-such-project' }, 'aud'],
    ['no sub', { subject: undefined }, 'sub'],
    ['a sub other than userexternal', { subject: 'user' }, 'sub'],
  ] as const)('answers 400 naming the claim for %s', async (_label, change, field) => {
    const options: jwt.SignOptions = { subject: 'userexternal', audience: audience(p.projectId) };
    if ('audience' in change) {
      if (change.audience === undefined) delete options.audience;
      else options.audience = change.audience;
    }
    if ('subject' in change) {
      if (change.subject === undefined) delete options.subject;
      else options.subject = change.subject;
    }
    const res = await signIn(`JWT ${jwt.sign(externalUser(), secret, options)}`);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, code: 'BAD_USER_INPUT', field });
  });

  it('answers 400 naming _id when the payload has none', async () => {
    const res = await signIn(customToken(secret, { firstname: 'No', lastname: 'Id' }));
    expect(res.status).toBe(400);
    expect(res.body.field).toBe('_id');
  });

  it('never accepts the custom token itself as a credential for other calls', async () => {
    expect((await t.get('/v3/projects', { token: customToken(secret) })).status).toBe(401);
  });

  it('keeps a user an admin removed out of the project', async () => {
    const token = customToken(secret, externalUser({ _id: 'removed' }));
    const first = await customAuthentication(token);
    const teammate = await teammateOf(first.user._id);
    await t.delete(`/v3/${p.projectId}/project_users/${teammate._id}`, { token: p.admin.token });
    const res = await signIn(token);
    expect(res.status).toBe(403);
  });
});

describe('GraphQL', () => {
  it('generates a secret through generateJwtSecret', async () => {
    const { projectId, token } = await ownProject('GraphQL keys');
    const res = await t.gql('mutation($id: String!) { generateJwtSecret(project_id: $id) { jwtSecret } }', { id: projectId }, token);
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.generateJwtSecret.jwtSecret.length).toBeGreaterThanOrEqual(43);
  });

  it('signs in through signinWithCustomToken with the token in the Authorization header', async () => {
    const res = await t.gql(
      'mutation { signinWithCustomToken { success token user { externalId } } }',
      {},
      customToken(secret, externalUser({ _id: 'graphql-user' })),
    );
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.signinWithCustomToken).toMatchObject({ success: true, user: { externalId: 'graphql-user' } });
  });

  it('reports a bad signature as UNAUTHENTICATED', async () => {
    const res = await t.gql('mutation { signinWithCustomToken { token } }', {}, customToken('wrong-secret-wrong-secret-wrong-secret'));
    expect(res.body.errors![0].extensions!.code).toBe('UNAUTHENTICATED');
  });
});

describe('throttling', () => {
  let throttled: TestApp;
  beforeAll(async () => {
    // Four consecutive failures for one project from one address lock that pair.
    throttled = await createTestApp({ SIGNIN_MAX_FAILURES: '4' });
  });
  afterAll(() => throttled.close());

  it('answers 429 with Retry-After once a client address has failed too often', async () => {
    const owner = await throttled.newUser('site');
    const projectId = (await throttled.post('/v3/projects', { token: owner.token, body: { name: 'Throttled' } })).body._id;
    const key = (await throttled.post(`/v3/${projectId}/keys/generate`, { token: owner.token })).body.jwtSecret;
    const signed = (secretKey: string) =>
      `JWT ${jwt.sign(externalUser(), secretKey, { subject: 'userexternal', audience: audience(projectId) })}`;
    for (let i = 0; i < 4; i++) {
      expect((await throttled.post('/v3/auth/signinWithCustomToken', { token: signed('guessed-secret') })).status).toBe(401);
    }
    const res = await throttled.post('/v3/auth/signinWithCustomToken', { token: signed(key) });
    expect(res.status).toBe(429);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});

describe('custom tokens from a site whose clock is a few seconds off', () => {
  const now = () => Math.floor(Date.now() / 1000);

  it('signs in with a token whose nbf is 3 s ahead of the server, and one whose exp passed 5 s ago', async () => {
    const early = await signIn(customToken(secret, { ...externalUser(), nbf: now() + 3 }));
    expect(early.status).toBe(200);
    const late = await signIn(customToken(secret, { ...externalUser(), exp: now() - 5 }));
    expect(late.status).toBe(200);
  });

  it('answers a token not valid yet past the tolerance with 401 saying so, not that its signature is wrong', async () => {
    const res = await signIn(customToken(secret, { ...externalUser(), nbf: now() + 120 }));
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ code: 'UNAUTHENTICATED', message: expect.stringMatching(/not valid yet.*nbf/) });
    expect(res.body.message).not.toMatch(/not signed/);
  });

  it('does not count correctly signed tokens outside their validity as failed credentials: the address is not locked out', async () => {
    for (let i = 0; i < 8; i++) {
      const res = await signIn(customToken(secret, { ...externalUser(), nbf: now() + 600 }));
      expect(res.status).toBe(401);
      const expired = await signIn(customToken(secret, { ...externalUser(), exp: now() - 600 }));
      expect(expired.status).toBe(401);
    }
    expect((await signIn(customToken(secret))).status).toBe(200);
  });
});
