import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedTestApp, type SeededProject, type TestApp } from './helpers/app.js';
import { onlyAvailable, openRequest } from './helpers/conversations.js';
import { sdkCall, sdkClient, sdkStatus } from './helpers/sdk.js';

// The official JavaScript SDK (the reference legacy client) on requests, routing and participants:
// it treats any answer but 200 as an error, so each call resolving is itself part of what is checked.

let t: TestApp;
beforeAll(async () => {
  t = await sharedTestApp();
});
afterAll(() => t.close());

const sdk = (p: SeededProject, token: string) => sdkClient(t.baseUrl, p.projectId, token);

/** getRequestById answers a promise of the request, null on a 404. */
const requestById = (p: SeededProject, token: string, requestId: string) =>
  (sdk(p, token).getRequestById as (id: string) => Promise<unknown>)(requestId);

const read = async (p: SeededProject, requestId: string) =>
  (await t.get(`/v3/${p.projectId}/requests/${requestId}`, { token: p.owner.token })).body;

async function createBot(p: SeededProject, name: string) {
  return (await t.post(`/v3/${p.projectId}/bots`, { token: p.admin.token, body: { name, template: 'blank' } })).body._id as string;
}

async function createDepartment(p: SeededProject, body: Record<string, unknown>) {
  return (await t.post(`/v3/${p.projectId}/departments`, { token: p.admin.token, body: { name: `D${Math.random()}`, ...body } })).body._id as string;
}

/** A request the bot of a new department serves. */
async function botServed(p: SeededProject, botId: string) {
  const departmentId = await createDepartment(p, { routing: 'assigned', id_bot: botId });
  return { departmentId, requestId: await openRequest(t, p, { departmentid: departmentId }) };
}

describe('assign (PUT .../assign)', () => {
  it('routes the request to the department given, answering the request', async () => {
    const p = await t.seedProject();
    await onlyAvailable(t, p, [p.agent]);
    const requestId = await openRequest(t, p, { departmentid: await createDepartment(p, { routing: 'pooled' }) });
    const sales = await createDepartment(p, { routing: 'assigned' });
    const request = await sdkCall(sdk(p, p.admin.token), 'assign', requestId, sales, null);
    expect(request).toMatchObject({ request_id: requestId, status: 200, participants: [p.agent.userId], assignment_reason: 'least_loaded' });
    expect(request.department._id).toBe(sales);
  });

  it('lets the department bot join unless nobot is set', async () => {
    const p = await t.seedProject();
    await onlyAvailable(t, p, [p.agent]);
    const botId = await createBot(p, 'Greeter');
    const desk = await createDepartment(p, { routing: 'assigned', id_bot: botId });
    const client = sdk(p, p.admin.token);
    const requestId = await openRequest(t, p);
    const withBot = await sdkCall(client, 'assign', requestId, desk, { noPopulate: true });
    expect(withBot).toMatchObject({ participantsBots: [botId], assignment_reason: 'bot' });
    const withoutBot = await sdkCall(client, 'assign', requestId, desk, { nobot: true });
    expect(withoutBot).toMatchObject({ participants: [p.agent.userId], participantsBots: [], hasBot: false });
  });
});

describe('moveToAgent (PUT .../agent)', () => {
  it('hands a bot-served request to the agents of its department, the bot leaving', async () => {
    const p = await t.seedProject();
    await onlyAvailable(t, p, [p.agent]);
    const { requestId, departmentId } = await botServed(p, await createBot(p, 'Greeter'));
    const request = await sdkCall(sdk(p, p.admin.token), 'moveToAgent', requestId);
    expect(request).toMatchObject({ status: 200, hasBot: false, participants: [p.agent.userId], participantsBots: [], participantsAgents: [p.agent.userId] });
    expect(request.department._id).toBe(departmentId);
  });

  it('uses the default department when the request\'s department is gone', async () => {
    const p = await t.seedProject();
    await onlyAvailable(t, p, [p.agent]);
    const { requestId, departmentId } = await botServed(p, await createBot(p, 'Greeter'));
    await t.delete(`/v3/${p.projectId}/departments/${departmentId}`, { token: p.admin.token });
    const request = await sdkCall(sdk(p, p.admin.token), 'moveToAgent', requestId);
    expect(request).toMatchObject({ participants: [p.agent.userId], hasBot: false });
    expect(request.department.default).toBe(true);
  });

  it('is open to the bot taking part, which hands off this way', async () => {
    const p = await t.seedProject();
    await onlyAvailable(t, p, [p.agent]);
    const botId = await createBot(p, 'Greeter');
    const { requestId } = await botServed(p, botId);
    const botToken = (await t.get(`/v3/${p.projectId}/bots/${botId}/jwt`, { token: p.admin.token })).body.token;
    const request = await sdkCall(sdk(p, botToken), 'moveToAgent', requestId);
    expect(request).toMatchObject({ participants: [p.agent.userId], participantsBots: [] });
  });

  it('leaves the request UNSERVED when no agent is available', async () => {
    const p = await t.seedProject();
    await onlyAvailable(t, p, []);
    const { requestId } = await botServed(p, await createBot(p, 'Greeter'));
    const request = await sdkCall(sdk(p, p.admin.token), 'moveToAgent', requestId);
    expect(request).toMatchObject({ status: 100, participants: [], assignment_reason: 'no_agent_available' });
  });
});

describe('changing the bot', () => {
  it('changeBot replaces the bot serving the request with another', async () => {
    const p = await t.seedProject();
    const [first, second] = [await createBot(p, 'First'), await createBot(p, 'Second')];
    const { requestId } = await botServed(p, first);
    await sdkCall(sdk(p, p.admin.token), 'changeBot', requestId, second);
    expect(await read(p, requestId)).toMatchObject({ status: 200, participants: [`bot_${second}`], participantsBots: [second], hasBot: true });
  });

  it('changeBot adds the bot to a request no bot serves', async () => {
    const p = await t.seedProject();
    await onlyAvailable(t, p, [p.agent]);
    const requestId = await openRequest(t, p);
    const botId = await createBot(p, 'Helper');
    await sdkCall(sdk(p, p.admin.token), 'changeBot', requestId, botId);
    expect(await read(p, requestId)).toMatchObject({ participants: [p.agent.userId, `bot_${botId}`], participantsBots: [botId] });
  });

  it('replaceBotByName replaces the bot serving the request with the one of that name', async () => {
    const p = await t.seedProject();
    const first = await createBot(p, 'First');
    const second = await createBot(p, 'Night shift');
    const { requestId } = await botServed(p, first);
    await sdkCall(sdk(p, p.admin.token), 'replaceBotByName', requestId, 'Night shift');
    expect(await read(p, requestId)).toMatchObject({ participants: [`bot_${second}`], participantsBots: [second] });
  });

  it('changeBot fails with a 400 for a bot of another project, leaving the request without its bot', async () => {
    const p = await t.seedProject();
    const other = await t.seedProject('Other');
    const { requestId } = await botServed(p, await createBot(p, 'First'));
    const foreign = await createBot(other, 'Foreign');
    const failed = await sdkCall(sdk(p, p.admin.token), 'changeBot', requestId, foreign).catch((err) => err);
    expect(sdkStatus(failed)).toBe(400);
    expect(failed.response.data.field).toBe('member');
    expect((await read(p, requestId)).participants).toEqual([]);
  });
});

describe('getRequestById and getAllRequests', () => {
  it('show a guest their own request and list only theirs', async () => {
    const p = await t.seedProject();
    const mine = await openRequest(t, p);
    const visitor = await t.post('/v3/auth/signinAnonymously', { body: { id_project: p.projectId, firstname: 'Eve' } });
    await openRequest(t, { ...p, guest: { ...p.guest, token: visitor.body.token } });
    expect(await requestById(p, p.guest.token, mine)).toMatchObject({ request_id: mine });
    const page = await sdkCall(sdk(p, p.guest.token), 'getAllRequests', {});
    expect(page.requests.map((r: { request_id: string }) => r.request_id)).toEqual([mine]);
  });

  it('answer null to a guest for another visitor\'s request, as for an unknown one', async () => {
    const p = await t.seedProject();
    const theirs = await openRequest(t, p);
    const visitor = await t.post('/v3/auth/signinAnonymously', { body: { id_project: p.projectId, firstname: 'Eve' } });
    expect(await requestById(p, visitor.body.token, theirs)).toBeNull();
  });
});
