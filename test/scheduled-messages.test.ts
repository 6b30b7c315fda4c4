import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedTestApp, type SeededProject, type TestApp } from './helpers/app.js';
import { eventually, openRequest } from './helpers/conversations.js';

// Scheduled messages over REST and GraphQL: stored, listed, edited and cancelled until sent, sent
// at their time, or not at all once the conversation closed (the timeline says so).

let t: TestApp;
let p: SeededProject;
let other: SeededProject;

beforeAll(async () => {
  t = await sharedTestApp();
  [p, other] = await Promise.all([t.seedProject('Later'), t.seedProject('Elsewhere')]);
});
afterAll(() => t.close());

const inMs = (ms: number) => new Date(Date.now() + ms).toISOString();
const path = (requestId: string, id = '') => `/v3/${p.projectId}/requests/${requestId}/scheduled_messages${id ? `/${id}` : ''}`;
const schedule = (requestId: string, body: Record<string, unknown>, token = p.admin.token) => t.post(path(requestId), { token, body });
const messagesOf = async (requestId: string) =>
  (await t.get(`/v3/${p.projectId}/requests/${requestId}/messages`, { token: p.admin.token })).body as Array<{ text: string; sender: string; attributes: Record<string, unknown> }>;
const listOf = async (requestId: string) => (await t.get(path(requestId), { token: p.admin.token })).body as Array<{ _id: string; status: string; text: string }>;

describe('scheduling a message', () => {
  it('stores it as scheduled and lists it, without writing any message yet', async () => {
    const requestId = await openRequest(t, p, { text: 'hello' });
    const res = await schedule(requestId, { text: 'Any news?', scheduled_at: inMs(3_600_000) });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'scheduled', text: 'Any news?', request_id: requestId, sender: p.admin.userId, message_id: null });
    expect((await listOf(requestId)).map((m) => m._id)).toEqual([res.body._id]);
    expect((await messagesOf(requestId)).some((m) => m.text === 'Any news?')).toBe(false);
  });

  it('sends it at its time, once, as its author', async () => {
    const requestId = await openRequest(t, p, { text: 'hello' });
    const res = await schedule(requestId, { text: 'Following up as promised', scheduled_at: inMs(1500) });
    const sent = await eventually(async () => {
      const row = (await listOf(requestId))[0];
      return row.status === 'sent' ? row : null;
    }, 30_000);
    const messages = (await messagesOf(requestId)).filter((m) => m.text === 'Following up as promised');
    expect(messages).toHaveLength(1);
    expect(messages[0].sender).toBe(p.admin.userId);
    expect(messages[0].attributes.scheduled_message_id).toBe(res.body._id);
    expect((sent as unknown as { message_id: string }).message_id).toBeTruthy();
  });

  it('sends the edited text at the edited time', async () => {
    const requestId = await openRequest(t, p, { text: 'hello' });
    const res = await schedule(requestId, { text: 'draft', scheduled_at: inMs(3_600_000) });
    const edited = await t.patch(path(requestId, res.body._id), { token: p.admin.token, body: { text: 'final words', scheduled_at: inMs(1000) } });
    expect(edited.status).toBe(200);
    expect(edited.body.text).toBe('final words');
    await eventually(async () => ((await listOf(requestId))[0].status === 'sent' ? true : null), 30_000);
    const texts = (await messagesOf(requestId)).map((m) => m.text);
    expect(texts).toContain('final words');
    expect(texts).not.toContain('draft');
  });

  it('never sends a cancelled message, and a second cancel answers 409', async () => {
    const requestId = await openRequest(t, p, { text: 'hello' });
    const res = await schedule(requestId, { text: 'never mind', scheduled_at: inMs(1500) });
    const cancelled = await t.delete(path(requestId, res.body._id), { token: p.admin.token });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.status).toBe('cancelled');
    const again = await t.delete(path(requestId, res.body._id), { token: p.admin.token });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('CONFLICT');
    // Another message scheduled later than it is sent: the sweep passed the cancelled one by.
    await schedule(requestId, { text: 'marker', scheduled_at: inMs(2500) });
    await eventually(async () => ((await messagesOf(requestId)).some((m) => m.text === 'marker') ? true : null), 30_000);
    expect((await messagesOf(requestId)).some((m) => m.text === 'never mind')).toBe(false);
  });

  it('answers 409 to an edit once the message was sent, and the message stays as sent', async () => {
    const requestId = await openRequest(t, p, { text: 'hello' });
    const res = await schedule(requestId, { text: 'soon', scheduled_at: inMs(1000) });
    await eventually(async () => ((await listOf(requestId))[0].status === 'sent' ? true : null), 30_000);
    const edit = await t.patch(path(requestId, res.body._id), { token: p.admin.token, body: { text: 'changed' } });
    expect(edit.status).toBe(409);
    expect(edit.body.message).toContain('sent');
    expect((await messagesOf(requestId)).filter((m) => m.text === 'soon')).toHaveLength(1);
  });

  it('does not send it when the conversation was closed meanwhile, and the timeline tells the agent', async () => {
    const requestId = await openRequest(t, p, { text: 'hello' });
    await schedule(requestId, { text: 'too late', scheduled_at: inMs(1500) });
    expect((await t.put(`/v3/${p.projectId}/requests/${requestId}/close`, { token: p.admin.token })).status).toBe(200);
    const skipped = await eventually(async () => {
      const row = (await listOf(requestId))[0] as unknown as { status: string; reason: string };
      return row.status === 'skipped' ? row : null;
    }, 30_000);
    expect(skipped.reason).toBe('closed');
    expect((await messagesOf(requestId)).some((m) => m.text === 'too late')).toBe(false);
    const timeline = await t.get(`/v3/${p.projectId}/requests/${requestId}/timeline`, { token: p.admin.token });
    expect(timeline.body.map((e: { text: string }) => e.text)).toContain('A message admin Test scheduled was not sent: the conversation was closed');
    expect(timeline.body.at(-1)).toMatchObject({ name: 'message.scheduled_skipped', actor: p.admin.userId });
  });

  it('works the same over GraphQL', async () => {
    const requestId = await openRequest(t, p, { text: 'hello' });
    const res = await t.gql(
      `mutation($p: String!, $r: String!, $at: String!) { scheduleMessage(project_id: $p, request_id: $r, text: "via graphql", scheduled_at: $at) { id status } }`,
      { p: p.projectId, r: requestId, at: inMs(3_600_000) },
      p.agent.token,
    );
    expect(res.body.errors).toBeUndefined();
    const id = res.body.data.scheduleMessage.id;
    const cancel = await t.gql(
      `mutation($p: String!, $r: String!, $id: String!) { cancelScheduledMessage(project_id: $p, request_id: $r, id: $id) { status } }`,
      { p: p.projectId, r: requestId, id },
      p.agent.token,
    );
    expect(cancel.body.data.cancelScheduledMessage.status).toBe('cancelled');
    const list = await t.gql(`query($p: String!, $r: String!) { scheduledMessages(project_id: $p, request_id: $r) { id status } }`, { p: p.projectId, r: requestId }, p.agent.token);
    expect(list.body.data.scheduledMessages).toEqual([{ id, status: 'cancelled' }]);
  });
});

describe('bad input changes nothing', () => {
  it.each([
    ['a time in the past', { text: 'x', scheduled_at: new Date(Date.now() - 60_000).toISOString() }, 'scheduled_at'],
    ['a time that is not ISO-8601', { text: 'x', scheduled_at: 'tomorrow' }, 'scheduled_at'],
    ['more than a year ahead', { text: 'x', scheduled_at: new Date(Date.now() + 400 * 86_400_000).toISOString() }, 'scheduled_at'],
    ['no text', { scheduled_at: new Date(Date.now() + 60_000).toISOString() }, 'text'],
    ['no time', { text: 'x' }, 'scheduled_at'],
  ])('answers 400 naming the field for %s', async (_name, body, field) => {
    const requestId = await openRequest(t, p, { text: 'hello' });
    const res = await schedule(requestId, body);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'BAD_USER_INPUT', field });
    expect(res.body.request_id).toBeTruthy();
    expect(await listOf(requestId)).toEqual([]);
  });

  it('answers 409 for a closed conversation', async () => {
    const requestId = await openRequest(t, p, { text: 'hello' });
    await t.put(`/v3/${p.projectId}/requests/${requestId}/close`, { token: p.admin.token });
    const res = await schedule(requestId, { text: 'x', scheduled_at: inMs(60_000) });
    expect(res.status).toBe(409);
    expect(await listOf(requestId)).toEqual([]);
  });

  it('answers 400 to an edit that moves it into the past, and keeps the old time', async () => {
    const requestId = await openRequest(t, p, { text: 'hello' });
    const at = inMs(3_600_000);
    const res = await schedule(requestId, { text: 'x', scheduled_at: at });
    const edit = await t.patch(path(requestId, res.body._id), { token: p.admin.token, body: { scheduled_at: new Date(Date.now() - 1000).toISOString() } });
    expect(edit.status).toBe(400);
    expect(edit.body.field).toBe('scheduled_at');
    expect((await listOf(requestId))[0]).toMatchObject({ status: 'scheduled', scheduled_at: at });
  });
});

describe('roles and tenancy', () => {
  it('refuses end users and visitors with 403', async () => {
    const requestId = await openRequest(t, p, { text: 'hello' });
    for (const token of [p.user.token, p.guest.token]) {
      expect((await schedule(requestId, { text: 'x', scheduled_at: inMs(60_000) }, token)).status).toBe(403);
      expect((await t.get(path(requestId), { token })).status).toBe(403);
    }
    expect(await listOf(requestId)).toEqual([]);
  });

  it("neither reads nor writes another project's scheduled messages", async () => {
    const requestId = await openRequest(t, p, { text: 'hello' });
    const mine = await schedule(requestId, { text: 'private', scheduled_at: inMs(3_600_000) });
    const otherPath = `/v3/${other.projectId}/requests/${requestId}/scheduled_messages`;
    expect((await t.get(otherPath, { token: other.admin.token })).status).toBe(404);
    expect((await t.post(otherPath, { token: other.admin.token, body: { text: 'x', scheduled_at: inMs(60_000) } })).status).toBe(404);
    expect((await t.patch(`${otherPath}/${mine.body._id}`, { token: other.admin.token, body: { text: 'hijack' } })).status).toBe(404);
    expect((await t.delete(`${otherPath}/${mine.body._id}`, { token: other.admin.token })).status).toBe(404);
    expect((await t.get(path(requestId), { token: other.admin.token })).status).toBe(403);
    expect((await listOf(requestId))[0]).toMatchObject({ text: 'private', status: 'scheduled' });
  });
});
