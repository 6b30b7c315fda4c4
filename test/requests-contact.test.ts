import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, sharedTestApp, type SeededProject, type TestApp } from './helpers/app.js';
import { newRequestId } from './helpers/conversations.js';

// What the contact panel shows of a request: where the visitor is (a geo lookup of the client
// address, through trusted proxies with TRUST_PROXY), the browser, OS and device of its user
// agent, and the lead's other conversations.

const iphone =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_2 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.2 Mobile/15E148 Safari/604.1';
/** A public address the shipped GeoLite2 data places in St Albans, England. */
const britishAddress = '81.2.69.160';

/** The guest's first message from `forwardedFor`; answers the request as the admin reads it. */
async function openFrom(t: TestApp, p: SeededProject, forwardedFor?: string, body: Record<string, unknown> = {}) {
  const requestId = newRequestId();
  const sent = await t.post(`/v3/${p.projectId}/requests/${requestId}/messages`, {
    token: p.guest.token,
    body: { text: 'hello', ...body },
    headers: forwardedFor ? { 'x-forwarded-for': forwardedFor } : {},
  });
  expect(sent.status).toBe(200);
  return (await t.get(`/v3/${p.projectId}/requests/${requestId}`, { token: p.admin.token })).body;
}

describe('behind a trusted proxy (TRUST_PROXY=1)', () => {
  let t: TestApp;
  let p: SeededProject;
  beforeAll(async () => {
    t = await createTestApp({ TRUST_PROXY: '1', RATE_LIMIT_ANONYMOUS_REQUESTS: '30' });
    p = await t.seedProject();
  });
  afterAll(() => t.close());

  it('locates a new request by the forwarded client address: {country, region, city, ll}', async () => {
    const request = await openFrom(t, p, `203.0.113.50, ${britishAddress}`);
    expect(request.location).toMatchObject({ country: 'GB', region: 'ENG', city: 'St Albans' });
    expect(request.location.ll).toHaveLength(2);
  });

  it('leaves location null for a private forwarded address', async () => {
    expect((await openFrom(t, p, '192.168.1.20')).location).toBeNull();
  });

  it('counts calls without credentials by the forwarded address: one client\'s 429 is not another\'s', async () => {
    const call = (address: string) => t.get(`/v3/${p.projectId}/labels/default`, { headers: { 'x-forwarded-for': address } });
    for (let i = 0; i < 30; i++) expect((await call('198.51.100.7')).status).toBe(200);
    expect((await call('198.51.100.7')).status).toBe(429);
    expect((await call('198.51.100.8')).status).toBe(200);
  });

  it('is the same over GraphQL (createRequest locates the request too)', async () => {
    const res = await t.request('POST', '/graphql', {
      token: p.guest.token,
      headers: { 'x-forwarded-for': britishAddress },
      body: {
        query: `mutation($p: String!) { createRequest(project_id: $p, first_text: "hi") { location } }`,
        variables: { p: p.projectId },
      },
    });
    expect(res.body.data.createRequest.location).toMatchObject({ country: 'GB' });
  });
});

describe('without TRUST_PROXY (the default)', () => {
  let t: TestApp;
  let p: SeededProject;
  beforeAll(async () => {
    t = await sharedTestApp();
    p = await t.seedProject();
  });
  afterAll(() => t.close());

  it('ignores X-Forwarded-For: the request is located by the peer (loopback here: null)', async () => {
    expect((await openFrom(t, p, britishAddress)).location).toBeNull();
  });

  it('shows the browser, OS and device the user agent names, in REST and GraphQL', async () => {
    const request = await openFrom(t, p, undefined, { userAgent: iphone });
    expect(request).toMatchObject({ browser: { name: 'Safari', version: '17.2' }, os: { name: 'iOS', version: '17.2' }, device: 'mobile' });
    const res = await t.gql(
      `query($p: String!, $r: String!) { request(project_id: $p, request_id: $r) { browser { name version } os { name } device } }`,
      { p: p.projectId, r: request.request_id },
      p.admin.token,
    );
    expect(res.body.data?.request).toEqual({ browser: { name: 'Safari', version: '17.2' }, os: { name: 'iOS' }, device: 'mobile' });
  });

  it('answers null browser, OS and device without a user agent', async () => {
    expect(await openFrom(t, p)).toMatchObject({ browser: null, os: null, device: null });
  });

  it('lists a lead\'s conversations, closed ones included, with lead=<lead id>&status=all', async () => {
    const visitor = (await t.post('/v3/auth/signinAnonymously', { body: { id_project: p.projectId, firstname: 'Returning' } })).body.token;
    const asVisitor = { ...p, guest: { ...p.guest, token: visitor } };
    const first = await openFrom(t, asVisitor);
    await t.put(`/v3/${p.projectId}/requests/${first.request_id}/close`, { token: p.admin.token });
    const second = await openFrom(t, asVisitor);
    expect(second.lead._id).toBe(first.lead._id);
    const res = await t.get(`/v3/${p.projectId}/requests?lead=${first.lead._id}&status=all`, { token: p.admin.token });
    expect(res.body.requests.map((r: { request_id: string }) => r.request_id).sort()).toEqual([first.request_id, second.request_id].sort());
  });
});
