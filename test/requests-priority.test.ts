import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedTestApp, type SeededProject, type TestApp } from './helpers/app.js';
import { eventually, newRequestId, openRequest, send } from './helpers/conversations.js';

// Priority as people use it: filtered, sorted by rank, set by a bot's answer.

let t: TestApp;
let p: SeededProject;
let other: SeededProject;
const r: Record<string, string> = {};

beforeAll(async () => {
  t = await sharedTestApp();
  [p, other] = await Promise.all([t.seedProject('Prio'), t.seedProject('Elsewhere')]);
  for (const priority of ['low', 'urgent', 'normal', 'hight'] as const) {
    r[priority] = await openRequest(t, p, { text: `a ${priority} matter` });
    const set = await t.patch(`/v3/${p.projectId}/requests/${r[priority]}`, { token: p.admin.token, body: { priority } });
    expect(set.status).toBe(200);
  }
});
afterAll(() => t.close());

const list = (query: string, token = p.admin.token, projectId = p.projectId) => t.get(`/v3/${projectId}/requests${query}`, { token });
const ids = (res: { body: { requests: Array<{ request_id: string }> } }) => res.body.requests.map((x) => x.request_id);

describe('GET /v3/:project_id/requests?priority=', () => {
  it('keeps only the requests of one priority', async () => {
    const res = await list('?priority=urgent');
    expect(res.status).toBe(200);
    expect(ids(res)).toEqual([r.urgent]);
    expect(res.body.count).toBe(1);
  });

  it('keeps any of several priorities, repeated or comma-separated', async () => {
    expect(ids(await list('?priority=urgent&priority=hight')).sort()).toEqual([r.urgent, r.hight].sort());
    expect(ids(await list('?priority=urgent,low')).sort()).toEqual([r.urgent, r.low].sort());
  });

  it('answers 400 naming the field for a priority that does not exist, listing nothing', async () => {
    const res = await list('?priority=critical');
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'BAD_USER_INPUT', field: 'priority' });
    expect(res.body.message).toContain('urgent, hight, normal, low');
  });

  it('sorts by rank, urgent first by default and low first ascending', async () => {
    expect(ids(await list('?sortField=priority'))).toEqual([r.urgent, r.hight, r.normal, r.low]);
    expect(ids(await list('?sortField=priority&direction=1'))).toEqual([r.low, r.normal, r.hight, r.urgent]);
  });

  it('filters and sorts the same way over GraphQL', async () => {
    const res = await t.gql(
      `query($p: String!) { requests(project_id: $p, priority: ["urgent", "hight,low"], sortField: "priority") { count requests { request_id priority } } }`,
      { p: p.projectId },
      p.admin.token,
    );
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.requests.requests).toEqual([
      { request_id: r.urgent, priority: 'urgent' },
      { request_id: r.hight, priority: 'hight' },
      { request_id: r.low, priority: 'low' },
    ]);
  });

  it('answers a GraphQL BAD_USER_INPUT for an unknown priority', async () => {
    const res = await t.gql(`query($p: String!) { requests(project_id: $p, priority: ["soon"]) { count } }`, { p: p.projectId }, p.admin.token);
    expect(res.body.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
  });

  it("never lists another project's requests, whatever the priority", async () => {
    const res = await list('?priority=urgent,hight,normal,low', other.admin.token, other.projectId);
    expect(res.status).toBe(200);
    expect(res.body.count).toBe(0);
    expect((await list('?priority=urgent', other.admin.token)).status).toBe(403);
  });
});

describe('changing the priority', () => {
  it('refuses an unknown value with 400 and leaves the priority as it was', async () => {
    const res = await t.patch(`/v3/${p.projectId}/requests/${r.low}`, { token: p.admin.token, body: { priority: 'asap' } });
    expect(res.status).toBe(400);
    expect(res.body.field).toBe('priority');
    expect((await t.get(`/v3/${p.projectId}/requests/${r.low}`, { token: p.admin.token })).body.priority).toBe('low');
  });

  it("cannot change another project's request", async () => {
    const res = await t.patch(`/v3/${other.projectId}/requests/${r.low}`, { token: other.admin.token, body: { priority: 'urgent' } });
    expect(res.status).toBe(404);
    expect((await t.get(`/v3/${p.projectId}/requests/${r.low}`, { token: p.admin.token })).body.priority).toBe('low');
  });

  it("a visitor cannot raise their own request's priority", async () => {
    const res = await t.patch(`/v3/${p.projectId}/requests/${r.normal}`, { token: p.guest.token, body: { priority: 'urgent' } });
    expect(res.status).toBe(403);
    expect((await t.get(`/v3/${p.projectId}/requests/${r.normal}`, { token: p.admin.token })).body.priority).toBe('normal');
  });
});

describe('a bot sets the priority', () => {
  it('an intent answer with \\priority:urgent makes the request urgent and the text does not show it', async () => {
    const bot = await t.post(`/v3/${p.projectId}/bots`, { token: p.admin.token, body: { name: 'Triage', template: 'blank' } });
    expect(bot.status).toBe(200);
    const intent = await t.post(`/v3/${p.projectId}/faq`, {
      token: p.admin.token,
      body: { id_faq_kb: bot.body._id, question: 'my site is down', answer: 'We are on it.\n\\priority:urgent' },
    });
    expect(intent.status).toBe(200);
    const dept = await t.post(`/v3/${p.projectId}/departments`, { token: p.owner.token, body: { name: 'Triage desk', id_bot: bot.body._id } });
    const requestId = newRequestId();
    expect((await send(t, p.projectId, p.guest.token, requestId, { text: 'my site is down', departmentid: dept.body._id })).status).toBe(200);
    const urgent = await eventually(async () => {
      const res = await t.get(`/v3/${p.projectId}/requests/${requestId}`, { token: p.owner.token });
      return res.body.priority === 'urgent' ? res.body : null;
    });
    expect(urgent.priority).toBe('urgent');
    const messages = (await t.get(`/v3/${p.projectId}/requests/${requestId}/messages`, { token: p.owner.token })).body as Array<{ sender: string; text: string }>;
    expect(messages.find((m) => m.sender === `bot_${bot.body._id}`)?.text).toBe('We are on it.');
  });
});
