import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedTestApp, type SeededProject, type TestApp } from './helpers/app.js';
import { newRequestId, onlyAvailable, send } from './helpers/conversations.js';

// The request list as an agent console filters and orders it: by assignee, and by latest
// activity or by how long the visitor has waited for an answer.

let t: TestApp;
let p: SeededProject;
/** Opened in this order: a (served by the agent), b (served by the admin), c (waiting in a pool). */
const r: Record<'a' | 'b' | 'c', string> = { a: '', b: '', c: '' };

async function open(token: string, text: string, body: Record<string, unknown> = {}) {
  const requestId = newRequestId();
  expect((await send(t, p.projectId, token, requestId, { text, ...body })).status).toBe(200);
  return requestId;
}
const visitor = async () => (await t.post('/v3/auth/signinAnonymously', { body: { id_project: p.projectId, firstname: 'V' } })).body.token as string;

beforeAll(async () => {
  t = await sharedTestApp();
  p = await t.seedProject();
  const pool = (await t.post(`/v3/${p.projectId}/departments`, { token: p.admin.token, body: { name: 'Pool', routing: 'pooled' } })).body._id;
  const [va, vb, vc] = [await visitor(), await visitor(), await visitor()];
  await onlyAvailable(t, p, [p.agent]);
  r.a = await open(va, 'first question');
  await onlyAvailable(t, p, [p.admin]);
  r.b = await open(vb, 'second question');
  r.c = await open(vc, 'third question', { departmentid: pool });
  // a: the visitor writes again later (latest activity), unanswered; b: answered by the admin.
  await send(t, p.projectId, p.admin.token, r.b, { text: 'answered' });
  await send(t, p.projectId, va, r.a, { text: 'anyone there?' });
});
afterAll(() => t.close());

const list = async (query: string, token = p.admin.token) => {
  const res = await t.get(`/v3/${p.projectId}/requests?status=all&${query}`, { token });
  expect(res.status).toBe(200);
  return res.body.requests.map((x: { request_id: string }) => x.request_id) as string[];
};
const named = (ids: string[]) => ids.map((id) => (Object.keys(r) as Array<keyof typeof r>).find((k) => r[k] === id));

describe('request list for the console', () => {
  it('filters by assignee: a teammate\'s user id, me, or none', async () => {
    expect(named(await list(`assignee=${p.agent.userId}`))).toEqual(['a']);
    expect(named(await list('assignee=me', p.agent.token))).toEqual(['a']);
    expect(named(await list('assignee=me'))).toEqual(['b']);
    expect(named(await list('assignee=none'))).toEqual(['c']);
  });

  it('orders by latest activity: the newest message first', async () => {
    expect(named(await list('sortField=last_activity'))).toEqual(['a', 'b', 'c']);
    expect(named(await list('sortField=last_activity&direction=1'))).toEqual(['c', 'b', 'a']);
  });

  it('orders by waiting time: longest unanswered first with direction=1, answered ones last', async () => {
    expect(named(await list('sortField=waiting_since&direction=1'))).toEqual(['a', 'c', 'b']);
  });

  it('is the same over GraphQL', async () => {
    const res = await t.gql(
      `query($p: String!) { requests(project_id: $p, status: "all", assignee: "none", sortField: "last_activity") { requests { request_id } } }`,
      { p: p.projectId },
      p.admin.token,
    );
    expect(res.body.data?.requests.requests).toEqual([{ request_id: r.c }]);
  });
});
