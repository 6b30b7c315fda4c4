import { beforeAll, describe, expect, it } from 'vitest';
import { sharedTestApp, type SeededProject, type TestApp } from './helpers/app.js';
import { eventually, newRequestId, onlyAvailable, send } from './helpers/conversations.js';

// A conversation's timeline (GET /v3/:project_id/requests/:request_id/timeline, GraphQL
// requestTimeline): what happened to it, from the event log, as sentences a person reads.
// Seeded teammates are called "<role> Test"; the visitor is "Visitor".

let t: TestApp;
let p: SeededProject;
let sales: string;

interface Entry {
  seq: number;
  name: string;
  at: string;
  actor: string | null;
  actorName: string | null;
  text: string;
}

beforeAll(async () => {
  t = await sharedTestApp();
  p = await t.seedProject('Timeline');
  await onlyAvailable(t, p, [p.agent]);
  const department = await t.post(`/v3/${p.projectId}/departments`, { token: p.owner.token, body: { name: 'Sales', routing: 'assigned' } });
  sales = department.body._id;
});

const timeline = async (requestId: string, token = p.owner.token) => t.get(`/v3/${p.projectId}/requests/${requestId}/timeline`, { token });
const texts = async (requestId: string) => ((await timeline(requestId)).body as Entry[]).map((e) => e.text);

async function opened() {
  const requestId = newRequestId();
  expect((await send(t, p.projectId, p.guest.token, requestId, { text: 'hello' })).status).toBe(200);
  return requestId;
}

describe('GET /v3/:project_id/requests/:request_id/timeline', () => {
  it('tells a conversation\'s life in order: opened, assigned, re-routed, assigned by hand, closed, rated, reopened', async () => {
    const requestId = await opened();
    const base = `/v3/${p.projectId}/requests/${requestId}`;
    expect((await t.put(`${base}/departments`, { token: p.owner.token, body: { departmentid: sales } })).status).toBe(200);
    expect((await t.post(`${base}/participants`, { token: p.owner.token, body: { member: p.admin.userId } })).status).toBe(200);
    expect((await t.put(`${base}/close`, { token: p.owner.token })).status).toBe(200);
    expect((await t.patch(`${base}/rating`, { token: p.guest.token, body: { rating: 4, rating_message: 'great help' } })).status).toBe(200);
    expect((await t.put(`${base}/reopen`, { token: p.admin.token })).status).toBe(200);
    expect(await texts(requestId)).toEqual([
      'Visitor opened the conversation',
      'Assigned to agent Test',
      // Sales' agents include agent Test, who keeps the conversation.
      'owner Test routed the conversation to Sales',
      'owner Test assigned the conversation to admin Test',
      'Closed by owner Test',
      'Rated 4/5: great help',
      'Reopened by admin Test',
    ]);
  });

  it('gives each entry its event, time and actor, oldest first', async () => {
    const requestId = await opened();
    await t.put(`/v3/${p.projectId}/requests/${requestId}/close`, { token: p.owner.token });
    const res = await timeline(requestId);
    expect(res.status).toBe(200);
    const entries = res.body as Entry[];
    expect(entries[0]).toMatchObject({ name: 'request.create', actor: p.guest.userId, actorName: 'Visitor', text: 'Visitor opened the conversation' });
    expect(entries.at(-1)).toMatchObject({ name: 'request.close', actor: p.owner.userId, actorName: 'owner Test', text: 'Closed by owner Test' });
    const seqs = entries.map((e) => e.seq);
    expect(seqs).toEqual([...seqs].sort((x, y) => x - y));
    for (const entry of entries) expect(Date.parse(entry.at)).not.toBeNaN();
  });

  it('tells when a teammate takes a conversation, leaves it or changes its tags', async () => {
    await onlyAvailable(t, p, []);
    try {
      const requestId = await opened();
      const base = `/v3/${p.projectId}/requests/${requestId}`;
      expect((await t.put(`${base}/take`, { token: p.agent.token })).status).toBe(200);
      expect((await t.put(`${base}/tag`, { token: p.agent.token, body: { tag: 'vip' } })).status).toBe(200);
      expect((await t.delete(`${base}/participants/${p.agent.userId}`, { token: p.owner.token })).status).toBe(200);
      expect(await texts(requestId)).toEqual([
        'Visitor opened the conversation',
        'agent Test took the conversation',
        'agent Test changed the tags',
        'owner Test removed agent Test from the conversation',
      ]);
    } finally {
      await onlyAvailable(t, p, [p.agent]);
    }
  });

  it('tells when a bot joins', async () => {
    const bot = await t.post(`/v3/${p.projectId}/bots`, { token: p.admin.token, body: { name: 'Ada', template: 'blank' } });
    const desk = await t.post(`/v3/${p.projectId}/departments`, { token: p.owner.token, body: { name: 'Bot desk', id_bot: bot.body._id } });
    const requestId = await opened();
    await t.put(`/v3/${p.projectId}/requests/${requestId}/departments`, { token: p.owner.token, body: { departmentid: desk.body._id } });
    const said = await texts(requestId);
    expect(said).toContain('owner Test routed the conversation to Bot desk');
    expect(said).toContain('Bot Ada joined');
    expect(said).toContain('agent Test left the conversation');
    // The bot's own greeting is a message, not a timeline entry.
    await eventually(async () => ((await t.get(`/v3/${p.projectId}/requests/${requestId}/messages`, { token: p.owner.token })).body as unknown[]).length > 1);
  });

  it('answers the same over GraphQL', async () => {
    const requestId = await opened();
    const res = await t.gql(
      'query($p: String!, $r: String!) { requestTimeline(project_id: $p, request_id: $r) { seq name at actor actorName text } }',
      { p: p.projectId, r: requestId },
      p.agent.token,
    );
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.requestTimeline).toEqual((await timeline(requestId)).body);
  });

  it('is refused below agent: a user and the visitor get 403', async () => {
    const requestId = await opened();
    expect((await timeline(requestId, p.user.token)).status).toBe(403);
    expect((await timeline(requestId, p.guest.token)).status).toBe(403);
  });

  it('is refused to another project\'s owner, and a request of another project is not found', async () => {
    const requestId = await opened();
    const other = await t.seedProject('Elsewhere');
    expect((await timeline(requestId, other.owner.token)).status).toBe(403);
    const through = await t.get(`/v3/${other.projectId}/requests/${requestId}/timeline`, { token: other.owner.token });
    expect(through.status).toBe(404);
  });
});
