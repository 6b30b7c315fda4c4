import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedTestApp, type SeededProject, type TestApp } from './helpers/app.js';
import { newRequestId, onlyAvailable, openRequest } from './helpers/conversations.js';

// Who takes part in a request: participants in join order, split into agents and bots, and the
// checks on who may join.

let t: TestApp;
beforeAll(async () => {
  t = await sharedTestApp();
});
afterAll(() => t.close());

const path = (p: SeededProject, requestId: string, rest = '') => `/v3/${p.projectId}/requests/${requestId}${rest}`;
const read = async (p: SeededProject, requestId: string) => (await t.get(path(p, requestId), { token: p.owner.token })).body;
const add = (p: SeededProject, requestId: string, member: string) =>
  t.post(path(p, requestId, '/participants'), { token: p.admin.token, body: { member } });
const remove = (p: SeededProject, requestId: string, participant: string, token = p.admin.token) =>
  t.delete(path(p, requestId, `/participants/${encodeURIComponent(participant)}`), { token });
const createBot = async (p: SeededProject, name = 'Helper') =>
  (await t.post(`/v3/${p.projectId}/bots`, { token: p.admin.token, body: { name, template: 'blank' } })).body._id as string;
const load = async (p: SeededProject, member: { teammateId: string }) =>
  (await t.get(`/v3/${p.projectId}/project_users/${member.teammateId}`, { token: p.owner.token })).body.number_assigned_requests as number;

/** A request nobody serves yet (a pooled department). */
async function waitingRequest(p: SeededProject) {
  const pooled = await t.post(`/v3/${p.projectId}/departments`, { token: p.admin.token, body: { name: 'Pool', routing: 'pooled' } });
  return openRequest(t, p, { departmentid: pooled.body._id });
}

describe('participants in join order', () => {
  it('lists participants, participantsAgents and participantsBots in the order they joined', async () => {
    const p = await t.seedProject();
    const botId = await createBot(p);
    const requestId = await waitingRequest(p);
    await add(p, requestId, p.agent.userId);
    await add(p, requestId, `bot_${botId}`);
    await add(p, requestId, p.admin.userId);
    expect(await read(p, requestId)).toMatchObject({
      participants: [p.agent.userId, `bot_${botId}`, p.admin.userId],
      participantsAgents: [p.agent.userId, p.admin.userId],
      participantsBots: [botId],
      participatingAgents: [p.agent.userId, p.admin.userId],
      participatingBots: [botId],
    });
  });

  it('keeps those who stay in their place when the participants are replaced, newcomers after them', async () => {
    const p = await t.seedProject();
    const botId = await createBot(p);
    const requestId = await waitingRequest(p);
    await add(p, requestId, p.agent.userId);
    await add(p, requestId, p.owner.userId);
    const res = await t.put(path(p, requestId, '/participants'), {
      token: p.admin.token,
      body: [`bot_${botId}`, p.admin.userId, p.owner.userId, p.agent.userId],
    });
    expect(res.status).toBe(200);
    expect(res.body.participants).toEqual([p.agent.userId, p.owner.userId, `bot_${botId}`, p.admin.userId]);
  });

  it('shows a request with no participants with both lists empty', async () => {
    const p = await t.seedProject();
    expect(await read(p, await waitingRequest(p))).toMatchObject({ participants: [], participantsAgents: [], participantsBots: [] });
  });
});

describe('DELETE /v3/:project_id/requests/:request_id/participants/:participant_id', () => {
  it('removes an agent, the request going back to UNSERVED and their count to 0', async () => {
    const p = await t.seedProject();
    const requestId = await waitingRequest(p);
    await add(p, requestId, p.agent.userId);
    const res = await remove(p, requestId, p.agent.userId);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ request_id: requestId, status: 100, participants: [], participantsAgents: [] });
    expect(await load(p, p.agent)).toBe(0);
  });

  it('removes a bot given as bot_<id>', async () => {
    const p = await t.seedProject();
    const botId = await createBot(p);
    const requestId = await waitingRequest(p);
    await add(p, requestId, p.agent.userId);
    await add(p, requestId, `bot_${botId}`);
    const res = await remove(p, requestId, `bot_${botId}`);
    expect(res.body).toMatchObject({ participants: [p.agent.userId], participantsBots: [], hasBot: false, status: 200 });
  });

  it('answers 200 with the request unchanged for someone who does not take part', async () => {
    const p = await t.seedProject();
    await onlyAvailable(t, p, [p.agent]);
    const requestId = await openRequest(t, p);
    const before = await read(p, requestId);
    const res = await remove(p, requestId, p.admin.userId);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(before);
  });

  it('answers 200 the second time the same participant is removed', async () => {
    const p = await t.seedProject();
    await onlyAvailable(t, p, [p.agent]);
    const requestId = await openRequest(t, p);
    await remove(p, requestId, p.agent.userId);
    const again = await remove(p, requestId, p.agent.userId);
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ participants: [], status: 100 });
  });

  it('answers 404 for an unknown request', async () => {
    const p = await t.seedProject();
    expect((await remove(p, newRequestId(), p.agent.userId)).status).toBe(404);
  });

  it('needs the agent role', async () => {
    const p = await t.seedProject();
    await onlyAvailable(t, p, [p.agent]);
    const requestId = await openRequest(t, p);
    expect((await remove(p, requestId, p.agent.userId, p.guest.token)).status).toBe(403);
    expect((await remove(p, requestId, p.agent.userId, p.user.token)).status).toBe(403);
  });
});

describe('who may join', () => {
  it('admits a bot of the project as bot_<id>', async () => {
    const p = await t.seedProject();
    const botId = await createBot(p);
    const res = await add(p, await waitingRequest(p), `bot_${botId}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 200, hasBot: true, participantsBots: [botId] });
  });

  it('answers 400 naming member for bot_ of no bot', async () => {
    const p = await t.seedProject();
    const res = await add(p, await waitingRequest(p), 'bot_nosuchbot');
    expect(res.status).toBe(400);
    expect(res.body.field).toBe('member');
  });

  it('answers 400 naming member for a bot of another project', async () => {
    const p = await t.seedProject();
    const other = await t.seedProject('Other');
    const res = await add(p, await waitingRequest(p), `bot_${await createBot(other)}`);
    expect(res.status).toBe(400);
    expect(res.body.field).toBe('member');
  });

  it('answers 400 naming member for a deleted bot', async () => {
    const p = await t.seedProject();
    const botId = await createBot(p);
    await t.delete(`/v3/${p.projectId}/bots/${botId}`, { token: p.admin.token });
    const res = await add(p, await waitingRequest(p), `bot_${botId}`);
    expect(res.status).toBe(400);
    expect(res.body.field).toBe('member');
  });

  it('answers 400 naming member for a user of another project', async () => {
    const p = await t.seedProject();
    const other = await t.seedProject('Other');
    const res = await add(p, await waitingRequest(p), other.agent.userId);
    expect(res.status).toBe(400);
    expect(res.body.field).toBe('member');
  });

  it('answers 400 naming member when member is missing', async () => {
    const p = await t.seedProject();
    const res = await t.post(path(p, await waitingRequest(p), '/participants'), { token: p.admin.token, body: {} });
    expect(res.status).toBe(400);
    expect(res.body.field).toBe('member');
  });

  it('answers 400 naming the entry when a replacement holds a bot of another project, changing nothing', async () => {
    const p = await t.seedProject();
    const other = await t.seedProject('Other');
    const requestId = await waitingRequest(p);
    const res = await t.put(path(p, requestId, '/participants'), {
      token: p.admin.token,
      body: [p.agent.userId, `bot_${await createBot(other)}`],
    });
    expect(res.status).toBe(400);
    expect(res.body.field).toBe('participants.1');
    expect((await read(p, requestId)).participants).toEqual([]);
  });

  it('answers 400 naming the entry when a replacement holds someone who is not a teammate', async () => {
    const p = await t.seedProject();
    const res = await t.put(path(p, await waitingRequest(p), '/participants'), { token: p.admin.token, body: { participants: ['stranger'] } });
    expect(res.status).toBe(400);
    expect(res.body.field).toBe('participants.0');
  });
});
