import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedTestApp, type SeededProject, type TestApp } from './helpers/app.js';
import { newRequestId, send } from './helpers/conversations.js';

let t: TestApp;
let p: SeededProject;
let other: SeededProject;

beforeAll(async () => {
  t = await sharedTestApp();
  p = await t.seedProject('Merging');
  other = await t.seedProject('Elsewhere');
});
afterAll(() => t.close());

const merge = (into: string, from: unknown, token = p.admin.token, projectId = p.projectId) =>
  t.post(`/v3/${projectId}/requests/${into}/merge`, { token, body: { from } });

/** A request of the guest with these messages, tagged and noted. */
async function conversation(texts: string[], tag: string, project = p) {
  const requestId = newRequestId();
  for (const text of texts) expect((await send(t, project.projectId, project.guest.token, requestId, { text })).status).toBe(200);
  await t.put(`/v3/${project.projectId}/requests/${requestId}/tag`, { token: project.admin.token, body: { tag } });
  await t.post(`/v3/${project.projectId}/requests/${requestId}/notes`, { token: project.admin.token, body: { text: `note ${tag}` } });
  return requestId;
}

describe('POST /requests/:request_id/merge', () => {
  it('moves the others\' messages, tags and notes into it, in time order', async () => {
    const first = await conversation(['one', 'two'], 'billing');
    const second = await conversation(['three'], 'refund');
    const third = await conversation(['four'], 'billing');
    const res = await merge(second, [first, third]);
    expect(res.status).toBe(200);
    expect(res.body.tags.map((x: { tag: string }) => x.tag).sort()).toEqual(['billing', 'refund']);
    expect(res.body.notes.map((n: { text: string }) => n.text)).toEqual(['note billing', 'note refund', 'note billing']);
    const messages = await t.get(`/v3/${p.projectId}/requests/${second}/messages`, { token: p.admin.token });
    expect(messages.body.map((m: { text: string }) => m.text).filter((x: string) => ['one', 'two', 'three', 'four'].includes(x))).toEqual(['one', 'two', 'three', 'four']);
  });

  it('closes the others with a pointer to the surviving request', async () => {
    const a = await conversation(['a'], 'x');
    const b = await conversation(['b'], 'y');
    expect((await merge(a, [b])).status).toBe(200);
    const closed = await t.get(`/v3/${p.projectId}/requests/${b}`, { token: p.admin.token });
    expect(closed.body).toMatchObject({ status: 1000, merged_into: a });
    const survivor = await t.get(`/v3/${p.projectId}/requests/${a}`, { token: p.admin.token });
    expect(survivor.body.merged_into).toBeNull();
    // The visitor's widget reads the pointer of its own, merged-away conversation.
    const seen = await t.gql(`query($p: String!, $r: String!) { request(project_id: $p, request_id: $r) { merged_into } }`, { p: p.projectId, r: b }, p.guest.token);
    expect(seen.body.data.request.merged_into).toBe(a);
  });

  it('logs one request.merge event naming the merged requests, and audits it', async () => {
    const a = await conversation(['a'], 'x');
    const b = await conversation(['b'], 'y');
    const c = await conversation(['c'], 'z');
    expect((await merge(a, [b, c])).status).toBe(200);
    const events = await t.infra.database.prisma.domainEvent.findMany({ where: { id_project: p.projectId, name: 'request.merge' } });
    const mine = events.filter((e) => (e.payload as { request_id: string }).request_id === a);
    expect(mine).toHaveLength(1);
    expect((mine[0].payload as { from: string[] }).from).toEqual([b, c]);
    const audit = await t.get(`/v3/${p.projectId}/audit?action=request.merge`, { token: p.admin.token });
    expect(audit.body[0]).toMatchObject({ action: 'request.merge', actor: { id: p.admin.userId }, before: { from: [b, c] } });
  });

  it('is offered to webhook subscriptions', async () => {
    const res = await t.get(`/v3/${p.projectId}/subscriptions/events`, { token: p.admin.token });
    if (res.status === 200) expect(JSON.stringify(res.body)).toContain('request.merge');
    else expect(JSON.stringify((await t.get('/v3/openapi.json')).body)).toContain('request.merge');
  });

  it('is served over GraphQL', async () => {
    const a = await conversation(['ga'], 'g1');
    const b = await conversation(['gb'], 'g2');
    const res = await t.gql(
      `mutation($p: String!, $r: String!, $f: [String!]!) { mergeRequests(project_id: $p, request_id: $r, from: $f) { request_id tags } }`,
      { p: p.projectId, r: a, f: [b] },
      p.admin.token,
    );
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.mergeRequests.request_id).toBe(a);
  });
});

describe('who may merge', () => {
  it('refuses end users (users and guests) with 403, and changes nothing', async () => {
    const a = await conversation(['ra'], 'r1');
    const b = await conversation(['rb'], 'r2');
    expect((await merge(a, [b], p.guest.token)).status).toBe(403);
    expect((await merge(a, [b], p.user.token)).status).toBe(403);
    expect((await t.get(`/v3/${p.projectId}/requests/${b}`, { token: p.admin.token })).body.merged_into).toBeNull();
  });

  it('answers 401 without credentials', async () => {
    expect((await t.post(`/v3/${p.projectId}/requests/x/merge`, { body: { from: ['y'] } })).status).toBe(401);
  });

  it('cannot reach another project\'s requests: 404 naming from, nothing moved', async () => {
    const mine = await conversation(['mine'], 't1');
    const theirs = await conversation(['theirs'], 't2', other);
    const res = await merge(mine, [theirs]);
    expect(res.status).toBe(404);
    expect(res.body.field).toBe('from');
    const still = await t.get(`/v3/${other.projectId}/requests/${theirs}`, { token: other.admin.token });
    expect(still.body).toMatchObject({ merged_into: null });
    expect((await t.get(`/v3/${other.projectId}/requests/${theirs}/messages`, { token: other.admin.token })).body.some((m: { text: string }) => m.text === 'theirs')).toBe(true);
    // Nor into another project's request, by its admin through this project's path.
    expect((await merge(mine, [theirs], other.admin.token)).status).toBe(403);
  });
});

describe('bad input', () => {
  it('answers 400 naming from when it is missing, empty or holds an empty id', async () => {
    const a = await conversation(['ba'], 'b1');
    for (const from of [undefined, [], ['']]) {
      const res = await merge(a, from);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('BAD_USER_INPUT');
      expect(res.body.field).toMatch(/^from/);
    }
  });

  it('answers 400 for a request merged into itself or named twice', async () => {
    const a = await conversation(['sa'], 's1');
    const b = await conversation(['sb'], 's2');
    expect((await merge(a, [a])).body.field).toBe('from');
    expect((await merge(a, [b, b])).body.field).toBe('from');
    expect((await t.get(`/v3/${p.projectId}/requests/${b}`, { token: p.admin.token })).body.merged_into).toBeNull();
  });

  it('answers 409 for a request already merged, and 404 for an unknown target', async () => {
    const a = await conversation(['ca'], 'c1');
    const b = await conversation(['cb'], 'c2');
    const c = await conversation(['cc'], 'c3');
    expect((await merge(a, [b])).status).toBe(200);
    const again = await merge(c, [b]);
    expect(again.status).toBe(409);
    expect(again.body.field).toBe('from');
    expect((await merge(b, [c])).status).toBe(409);
    expect((await merge(newRequestId(), [c])).status).toBe(404);
  });
});
