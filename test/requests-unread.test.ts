import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, type SeededProject, type TestApp } from './helpers/app.js';
import { onlyAvailable, openRequest, send } from './helpers/conversations.js';
import { connect, subscribe } from './helpers/realtime.js';

// Unread counts: PUT .../seen marks a request read up to now for the calling teammate; `unread`
// counts the messages others wrote since (all of them before the first mark).

let t: TestApp;
let url: string;
let p: SeededProject;

beforeAll(async () => {
  const started = await createTestServer();
  t = started.client;
  url = started.server.url;
  p = await t.seedProject();
  // The agent serves what visitors open, so the agent sees every request below.
  await onlyAvailable(t, p, [p.agent]);
});
const clients: Array<{ dispose(): void | Promise<void> }> = [];
afterAll(async () => {
  await Promise.all(clients.map((c) => c.dispose()));
  await t.close();
});

const one = (requestId: string, token: string) => t.get(`/v3/${p.projectId}/requests/${requestId}`, { token });
const seen = (requestId: string, token: string, projectId = p.projectId) =>
  t.put(`/v3/${projectId}/requests/${requestId}/seen`, { token });
const unreadInList = async (requestId: string, token: string) => {
  const res = await t.get(`/v3/${p.projectId}/requests?status=all&limit=100`, { token });
  expect(res.status).toBe(200);
  return res.body.requests.find((r: { request_id: string }) => r.request_id === requestId)?.unread;
};

describe('unread counts', () => {
  it('counts every message from others before the teammate first marks the request seen', async () => {
    const requestId = await openRequest(t, p, { text: 'first' });
    await send(t, p.projectId, p.guest.token, requestId, { text: 'second' });
    expect((await one(requestId, p.agent.token)).body.unread).toBe(2);
    expect(await unreadInList(requestId, p.agent.token)).toBe(2);
  });

  it('answers the request with unread 0 once seen, and counts only what others write afterwards', async () => {
    const requestId = await openRequest(t, p, { text: 'hello' });
    const marked = await seen(requestId, p.agent.token);
    expect(marked.status).toBe(200);
    expect(marked.body).toMatchObject({ request_id: requestId, unread: 0 });
    await send(t, p.projectId, p.agent.token, requestId, { text: 'my own reply does not count' });
    await send(t, p.projectId, p.guest.token, requestId, { text: 'one more question' });
    expect((await one(requestId, p.agent.token)).body.unread).toBe(1);
    expect(await unreadInList(requestId, p.agent.token)).toBe(1);
  });

  it('keeps a count per teammate: one marking a request seen leaves another\'s count as it was', async () => {
    const requestId = await openRequest(t, p, { text: 'hello' });
    await seen(requestId, p.agent.token);
    expect((await one(requestId, p.agent.token)).body.unread).toBe(0);
    expect((await one(requestId, p.admin.token)).body.unread).toBe(1);
  });

  it('counts a never-seen request as a recount would, after an import, a merge and a deletion', async () => {
    const kept = await openRequest(t, p, { text: 'first' });
    await send(t, p.projectId, p.agent.token, kept, { text: 'my own reply does not count' });
    const imported = await openRequest(t, p, { text: 'to be merged' });
    const importedMessages = [
      { text: 'an old question', sender: 'crm-user-1', createdAt: '2024-01-01T10:00:00.000Z' },
      { text: 'an old answer of mine', sender: p.agent.userId, createdAt: '2024-01-01T10:05:00.000Z' },
    ];
    expect((await t.post(`/v3/${p.projectId}/requests/${imported}/messages/multi`, { token: p.admin.token, body: importedMessages })).status).toBe(200);
    const deleted = await openRequest(t, p, { text: 'to be deleted' });
    expect((await t.post(`/v3/${p.projectId}/requests/${kept}/merge`, { token: p.admin.token, body: { from: [imported] } })).status).toBe(200);
    expect((await t.delete(`/v3/${p.projectId}/requests/${deleted}`, { token: p.owner.token })).status).toBe(200);

    const recount = (requestId: string) =>
      t.infra.database.prisma.message.count({ where: { id_project: p.projectId, request_id: requestId, sender: { not: p.agent.userId } } });
    // 'first', 'to be merged' and the imported question at least; neither of the agent's own.
    expect((await one(kept, p.agent.token)).body.unread).toBe(await recount(kept));
    expect(await recount(kept)).toBeGreaterThanOrEqual(3);
    expect(await unreadInList(imported, p.agent.token)).toBe(await recount(imported));
    const tally = await t.infra.database.prisma.requestMessageTally.findMany({ where: { id_project: p.projectId, request_id: deleted } });
    expect(tally.reduce((sum, row) => sum + row.messages, 0)).toBe(0);
  });

  it('is null for end users reading their own request', async () => {
    const requestId = await openRequest(t, p, { text: 'hello' });
    const res = await one(requestId, p.guest.token);
    expect(res.status).toBe(200);
    expect(res.body.unread).toBeNull();
  });

  it('is the same over GraphQL: markRequestSeen and Request.unread', async () => {
    const requestId = await openRequest(t, p, { text: 'hello' });
    const read = `query($p: String!, $r: String!) { request(project_id: $p, request_id: $r) { unread } }`;
    expect((await t.gql(read, { p: p.projectId, r: requestId }, p.agent.token)).body.data?.request.unread).toBe(1);
    const mark = `mutation($p: String!, $r: String!) { markRequestSeen(project_id: $p, request_id: $r) { request_id unread } }`;
    const marked = await t.gql(mark, { p: p.projectId, r: requestId }, p.agent.token);
    expect(marked.body.data?.markRequestSeen).toEqual({ request_id: requestId, unread: 0 });
  });

  it('refuses end users (minimum role agent): 403', async () => {
    const requestId = await openRequest(t, p, { text: 'hello' });
    expect((await seen(requestId, p.guest.token)).status).toBe(403);
    expect((await seen(requestId, p.user.token)).status).toBe(403);
    expect((await seen(requestId, '')).status).toBe(401);
  });

  it('keeps to the project: another project\'s admin is refused, an unknown request is 404', async () => {
    const requestId = await openRequest(t, p, { text: 'hello' });
    const other = await t.seedProject('Other');
    expect((await seen(requestId, other.owner.token)).status).toBe(403);
    expect((await seen(requestId, other.owner.token, other.projectId)).status).toBe(404);
    expect((await seen('support-group-unknown', p.agent.token)).status).toBe(404);
  });

  it('refuses an agent a request outside their view (403)', async () => {
    // Served by the owner: the agent neither takes part nor sees it as unassigned.
    await onlyAvailable(t, p, [p.owner]);
    try {
      const requestId = await openRequest(t, p, { text: 'for the owner' });
      expect((await seen(requestId, p.agent.token)).status).toBe(403);
    } finally {
      await onlyAvailable(t, p, [p.agent]);
    }
  });

  it('reaches the teammate\'s other consoles live as request.seen with unread 0, and nobody else\'s', async () => {
    const requestId = await openRequest(t, p, { text: 'hello' });
    const query = `subscription($p: String!, $after: Int) { projectRequests(project_id: $p, after: $after) { name request_id request { unread } } }`;
    // From the project's last event: nothing is missed, however late the server subscribes.
    const after = Number((await t.infra.database.prisma.project.findUniqueOrThrow({ where: { id: p.projectId } })).eventSeq);
    const mine = connect(url, p.agent.token);
    const admins = connect(url, p.admin.token);
    clients.push(mine.client, admins.client);
    await Promise.all([mine.ready, admins.ready]);
    const agentEvents = subscribe(mine.client, query, { p: p.projectId, after });
    const adminEvents = subscribe(admins.client, query, { p: p.projectId, after });
    await t.put(`/v3/${p.projectId}/requests/${requestId}/tag`, { token: p.admin.token, body: { tag: 'ready' } });
    await agentEvents.waitFor((e) => e.name === 'request.update');
    await adminEvents.waitFor((e) => e.name === 'request.update');

    await seen(requestId, p.agent.token);
    const event = await agentEvents.waitFor((e) => e.name === 'request.seen');
    expect(event).toEqual({ name: 'request.seen', request_id: requestId, request: { unread: 0 } });
    // A later event reaches the admin: the seen one, logged before it, did not.
    await t.put(`/v3/${p.projectId}/requests/${requestId}/tag`, { token: p.admin.token, body: { tag: 'after' } });
    await adminEvents.waitFor((e) => e.name === 'request.update' && adminEvents.events.length >= 2);
    expect(adminEvents.events.map((e) => e.name)).not.toContain('request.seen');
    agentEvents.stop();
    adminEvents.stop();
  });
});
