import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedTestApp, type SeededProject, type TestApp } from './helpers/app.js';
import { eventually, newRequestId, onlyAvailable, openRequest, send } from './helpers/conversations.js';
import { productionMode } from './helpers/environment.js';

let t: TestApp;
beforeAll(async () => {
  t = await sharedTestApp();
});
afterAll(() => t.close());

const path = (p: SeededProject, requestId: string, rest = '') => `/v3/${p.projectId}/requests/${requestId}${rest}`;
const get = (p: SeededProject, requestId: string) => t.get(path(p, requestId), { token: p.owner.token }).then((r) => r.body);
const load = async (p: SeededProject, member: { teammateId: string }) =>
  (await t.get(`/v3/${p.projectId}/project_users/${member.teammateId}`, { token: p.owner.token })).body.number_assigned_requests as number;
const setTeammate = (p: SeededProject, member: { teammateId: string }, body: Record<string, unknown>) =>
  t.put(`/v3/${p.projectId}/project_users/${member.teammateId}`, { token: p.owner.token, body });
const department = async (p: SeededProject, body: Record<string, unknown>) =>
  (await t.post(`/v3/${p.projectId}/departments`, { token: p.owner.token, body: { name: `D${Math.random()}`, ...body } })).body._id as string;
const group = async (p: SeededProject, members: string[]) =>
  (await t.post(`/v3/${p.projectId}/groups`, { token: p.owner.token, body: { name: `G${Math.random()}`, members } })).body._id as string;
const close = (p: SeededProject, requestId: string) => t.put(path(p, requestId, '/close'), { token: p.owner.token });

describe('assigned routing', () => {
  it('gives a new request to an available agent, SERVED, and counts it', async () => {
    const p = await t.seedProject();
    await onlyAvailable(t, p, [p.agent]);
    const request = await get(p, await openRequest(t, p));
    expect(request).toMatchObject({ status: 200, assignment_reason: 'least_loaded', participants: [p.agent.userId] });
    expect(await load(p, p.agent)).toBe(1);
  });

  it('prefers the least-loaded agent', async () => {
    const p = await t.seedProject();
    await onlyAvailable(t, p, [p.agent]);
    await openRequest(t, p);
    await openRequest(t, p);
    await onlyAvailable(t, p, [p.agent, p.admin]);
    const request = await get(p, await openRequest(t, p));
    expect(request.participants).toEqual([p.admin.userId]);
  });

  it('breaks ties round robin', async () => {
    const p = await t.seedProject();
    await onlyAvailable(t, p, [p.agent, p.admin]);
    const served: string[] = [];
    for (let i = 0; i < 4; i++) {
      const requestId = await openRequest(t, p);
      served.push((await get(p, requestId)).participants[0]);
      await close(p, requestId); // everyone is back to zero: only the tie-break decides
    }
    expect(served[0]).not.toBe(served[1]);
    expect(served[2]).toBe(served[0]);
    expect(served[3]).toBe(served[1]);
  });

  it('never gives a request to the teammate who opened it', async () => {
    const p = await t.seedProject();
    await onlyAvailable(t, p, [p.agent]);
    const requestId = newRequestId();
    await send(t, p.projectId, p.agent.token, requestId);
    expect(await get(p, requestId)).toMatchObject({ status: 100, assignment_reason: 'no_agent_available' });
  });

  it('routes only to the members of the department group', async () => {
    const p = await t.seedProject();
    const dept = await department(p, { routing: 'assigned', id_group: await group(p, [p.agent.userId]) });
    for (let i = 0; i < 3; i++) {
      const request = await get(p, await openRequest(t, p, { departmentid: dept }));
      expect(request.participants).toEqual([p.agent.userId]);
    }
  });

  it('distributes requests across groups by their percentages', async () => {
    const p = await t.seedProject();
    const groups = [
      { id_group: await group(p, [p.agent.userId]), percentage: 70 },
      { id_group: await group(p, [p.admin.userId]), percentage: 30 },
    ];
    const dept = await department(p, { routing: 'assigned' });
    await t.put(`/v3/${p.projectId}/departments/${dept}`, { token: p.owner.token, body: { name: 'Split', routing: 'assigned', groups } });
    const served: string[] = [];
    for (let i = 0; i < 10; i++) served.push((await get(p, await openRequest(t, p, { departmentid: dept }))).participants[0]);
    expect(served.filter((u) => u === p.agent.userId)).toHaveLength(7);
    expect(served.filter((u) => u === p.admin.userId)).toHaveLength(3);
  });

  it('skips agents at their max_served_chat', async () => {
    const p = await t.seedProject();
    await onlyAvailable(t, p, [p.agent, p.admin]);
    await setTeammate(p, p.admin, { max_served_chat: 0 });
    for (let i = 0; i < 2; i++) expect((await get(p, await openRequest(t, p))).participants).toEqual([p.agent.userId]);
  });

  it('never exceeds max_served_chat under concurrent creation', async () => {
    const p = await t.seedProject();
    await onlyAvailable(t, p, [p.agent]);
    await setTeammate(p, p.agent, { max_served_chat: 3 });
    const requestIds = await Promise.all(Array.from({ length: 10 }, () => openRequest(t, p)));
    const requests = await Promise.all(requestIds.map((id) => get(p, id)));
    expect(requests.filter((r) => r.status === 200)).toHaveLength(3);
    expect(requests.filter((r) => r.assignment_reason === 'no_agent_available')).toHaveLength(7);
    expect(await load(p, p.agent)).toBe(3);
  });

  // Only the chosen agent's row is locked: with every candidate locked, a team's new conversations
  // queued behind one another's commits. (Embedded mode has one connection: nothing runs beside.)
  it.skipIf(!productionMode)('gives a new conversation to the next agent at once while another decision holds the least-loaded one', async () => {
    const p = await t.seedProject();
    await onlyAvailable(t, p, [p.agent, p.admin]);
    await openRequest(t, p); // one of them now serves one: the other is the least loaded
    const [busy, other] = (await load(p, p.agent)) === 1 ? [p.admin, p.agent] : [p.agent, p.admin];
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const holding = new Promise<void>((resolve) => (locked = resolve));
    const held = t.infra.database.prisma.$transaction(
      async (tx) => {
        await tx.$queryRaw`SELECT 1 FROM "ProjectUser" WHERE "id" = ${busy.teammateId} FOR UPDATE`;
        locked();
        await released;
      },
      { timeout: 20_000 },
    );
    await holding;
    try {
      const requestId = await Promise.race([
        openRequest(t, p),
        new Promise<never>((_, reject) => setTimeout(() => reject(new Error('the new conversation waited for the held row')), 5_000)),
      ]);
      expect((await get(p, requestId)).participants).toEqual([other.userId]);
    } finally {
      release();
      await held;
    }
    expect(await load(p, other)).toBe(2);
  });

  it('lists the first ten available agents in the snapshot of a request, and counts them all', async () => {
    const p = await t.seedProject();
    // Owner, admin and agent, and ten more: thirteen available.
    for (let i = 0; i < 10; i++) await t.addMember(p.projectId, p.owner.token, await t.newUser(`extra${i}`));
    const request = await get(p, await openRequest(t, p));
    expect(request.snapshot.availableAgentsCount).toBe(13);
    expect(request.snapshot.agents).toHaveLength(10);
    // Routing's first choices: the agent it gave the request to among them.
    expect(request.snapshot.agents.map((a: { id_user: string }) => a.id_user)).toContain(request.participants[0]);
  });

  it('leaves requests UNSERVED outside operating hours', async () => {
    const p = await t.seedProject();
    await t.put(`/v3/projects/${p.projectId}`, { token: p.owner.token, body: { activeOperatingHours: true, operatingHours: { tzname: 'UTC' } } });
    expect(await get(p, await openRequest(t, p))).toMatchObject({ status: 100, assignment_reason: 'no_agent_available', participants: [] });
  });
});

describe('waiting requests', () => {
  it('are UNSERVED with no_agent_available when nobody can take them', async () => {
    const p = await t.seedProject();
    await onlyAvailable(t, p, []);
    const request = await get(p, await openRequest(t, p));
    expect(request).toMatchObject({ status: 100, assignment_reason: 'no_agent_available', participants: [] });
    expect(request.snapshot.availableAgentsCount).toBe(0);
  });

  it('go to a teammate who becomes available', async () => {
    const p = await t.seedProject();
    await onlyAvailable(t, p, []);
    const requestId = await openRequest(t, p);
    await setTeammate(p, p.agent, { user_available: true });
    const request = await eventually(async () => {
      const current = await get(p, requestId);
      return current.status === 200 && current;
    });
    expect(request).toMatchObject({ participants: [p.agent.userId], assignment_reason: 'least_loaded' });
  });

  it('go to an agent whose capacity frees up when a request closes', async () => {
    const p = await t.seedProject();
    await onlyAvailable(t, p, [p.agent]);
    await setTeammate(p, p.agent, { max_served_chat: 1 });
    const first = await openRequest(t, p);
    const waiting = await openRequest(t, p);
    expect((await get(p, waiting)).status).toBe(100);
    await close(p, first);
    await eventually(async () => (await get(p, waiting)).status === 200);
    expect(await load(p, p.agent)).toBe(1);
  });
});

describe('pooled routing', () => {
  it('leaves the request UNSERVED for any candidate to take', async () => {
    const p = await t.seedProject();
    const dept = await department(p, { routing: 'pooled' });
    const requestId = await openRequest(t, p, { departmentid: dept });
    expect(await get(p, requestId)).toMatchObject({ status: 100, assignment_reason: 'pooled', participants: [] });
    const taken = await t.put(path(p, requestId, '/take'), { token: p.agent.token });
    expect(taken.status).toBe(200);
    expect(taken.body).toMatchObject({ status: 200, participants: [p.agent.userId], participatingAgents: [p.agent.userId] });
    expect(await load(p, p.agent)).toBe(1);
  });

  it('answers 409 when someone already took it', async () => {
    const p = await t.seedProject();
    const requestId = await openRequest(t, p, { departmentid: await department(p, { routing: 'pooled' }) });
    await t.put(path(p, requestId, '/take'), { token: p.agent.token });
    expect((await t.put(path(p, requestId, '/take'), { token: p.admin.token })).status).toBe(409);
  });

  it('answers 409 for taking beyond max_served_chat', async () => {
    const p = await t.seedProject();
    await setTeammate(p, p.agent, { max_served_chat: 0 });
    const requestId = await openRequest(t, p, { departmentid: await department(p, { routing: 'pooled' }) });
    expect((await t.put(path(p, requestId, '/take'), { token: p.agent.token })).status).toBe(409);
  });

  it('needs the agent role to take', async () => {
    const p = await t.seedProject();
    const requestId = await openRequest(t, p, { departmentid: await department(p, { routing: 'pooled' }) });
    expect((await t.put(path(p, requestId, '/take'), { token: p.user.token })).status).toBe(403);
  });
});

describe('bots', () => {
  it('let the department bot join unless nobot is set', async () => {
    const p = await t.seedProject();
    const bot = (await t.post(`/v3/${p.projectId}/bots`, { token: p.owner.token, body: { name: 'Helper', template: 'blank' } })).body._id;
    const dept = await department(p, { routing: 'assigned', id_bot: bot });
    const requestId = await openRequest(t, p, { departmentid: dept });
    expect(await get(p, requestId)).toMatchObject({
      status: 200,
      hasBot: true,
      assignment_reason: 'bot',
      participants: [`bot_${bot}`],
      participatingBots: [bot],
      participatingAgents: [],
    });
    await onlyAvailable(t, p, [p.agent]);
    const handedOff = await t.put(path(p, requestId, '/departments'), { token: p.admin.token, body: { departmentid: dept, nobot: true } });
    expect(handedOff.body).toMatchObject({ hasBot: false, participants: [p.agent.userId], assignment_reason: 'least_loaded' });
  });
});

describe('PUT /v3/:project_id/requests/:request_id/departments', () => {
  it('routes the request to another department, replacing who serves it', async () => {
    const p = await t.seedProject();
    await onlyAvailable(t, p, [p.agent, p.admin]);
    const requestId = await openRequest(t, p);
    const before = (await get(p, requestId)).participants[0];
    const other = before === p.agent.userId ? p.admin : p.agent;
    const dept = await department(p, { routing: 'assigned', id_group: await group(p, [other.userId]) });
    const res = await t.put(path(p, requestId, '/departments'), { token: p.owner.token, body: { departmentid: dept } });
    expect(res.body).toMatchObject({ participants: [other.userId], department: { _id: dept } });
    expect(await load(p, other)).toBe(1);
    expect(await load(p, before === p.agent.userId ? p.agent : p.admin)).toBe(0);
  });

  it('answers 400 without or with an unknown departmentid, 409 for a closed request', async () => {
    const p = await t.seedProject();
    const requestId = await openRequest(t, p);
    expect((await t.put(path(p, requestId, '/departments'), { token: p.owner.token, body: {} })).body.field).toBe('departmentid');
    expect((await t.put(path(p, requestId, '/departments'), { token: p.owner.token, body: { departmentid: 'x' } })).body.field).toBe('departmentid');
    await close(p, requestId);
    const dept = await department(p, {});
    expect((await t.put(path(p, requestId, '/departments'), { token: p.owner.token, body: { departmentid: dept } })).status).toBe(409);
  });
});

describe('PUT /v3/:project_id/requests/:request_id/assign', () => {
  it('routes as PUT .../departments does, ignoring no_populate', async () => {
    const p = await t.seedProject();
    await onlyAvailable(t, p, [p.agent]);
    const requestId = await openRequest(t, p, { departmentid: await department(p, { routing: 'pooled' }) });
    const dept = await department(p, { routing: 'assigned' });
    const res = await t.put(path(p, requestId, '/assign'), { token: p.owner.token, body: { departmentid: dept, nobot: false, no_populate: true } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 200, participants: [p.agent.userId], assignment_reason: 'least_loaded', department: { _id: dept } });
  });

  it('answers 400 naming departmentid without or with an unknown one, 409 for a closed request', async () => {
    const p = await t.seedProject();
    const requestId = await openRequest(t, p);
    expect((await t.put(path(p, requestId, '/assign'), { token: p.owner.token, body: {} })).body.field).toBe('departmentid');
    expect((await t.put(path(p, requestId, '/assign'), { token: p.owner.token, body: { departmentid: 'x' } })).body.field).toBe('departmentid');
    await close(p, requestId);
    expect((await t.put(path(p, requestId, '/assign'), { token: p.owner.token, body: { departmentid: await department(p, {}) } })).status).toBe(409);
  });

  it('needs the agent role', async () => {
    const p = await t.seedProject();
    const requestId = await openRequest(t, p);
    const dept = await department(p, {});
    expect((await t.put(path(p, requestId, '/assign'), { token: p.user.token, body: { departmentid: dept } })).status).toBe(403);
    expect((await t.put(path(p, requestId, '/assign'), { token: p.guest.token, body: { departmentid: dept } })).status).toBe(403);
  });
});

describe('PUT /v3/:project_id/requests/:request_id/agent', () => {
  it('hands the request from its bot to the agents of its department, without a body', async () => {
    const p = await t.seedProject();
    await onlyAvailable(t, p, [p.agent, p.admin]);
    const bot = (await t.post(`/v3/${p.projectId}/bots`, { token: p.owner.token, body: { name: 'Helper', template: 'blank' } })).body._id;
    const dept = await department(p, { routing: 'assigned', id_bot: bot, id_group: await group(p, [p.admin.userId]) });
    const requestId = await openRequest(t, p, { departmentid: dept });
    const res = await t.put(path(p, requestId, '/agent'), { token: p.owner.token, headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 200, hasBot: false, participants: [p.admin.userId], department: { _id: dept } });
  });

  it('answers 409 for a closed request and 404 for an unknown one', async () => {
    const p = await t.seedProject();
    const requestId = await openRequest(t, p);
    await close(p, requestId);
    expect((await t.put(path(p, requestId, '/agent'), { token: p.owner.token })).status).toBe(409);
    expect((await t.put(path(p, newRequestId(), '/agent'), { token: p.owner.token })).status).toBe(404);
  });

  it('needs the agent role', async () => {
    const p = await t.seedProject();
    const requestId = await openRequest(t, p);
    expect((await t.put(path(p, requestId, '/agent'), { token: p.user.token })).status).toBe(403);
    expect((await t.put(path(p, requestId, '/agent'), { token: p.guest.token })).status).toBe(403);
  });
});

describe('participants', () => {
  it('adds an agent (SERVED) and removes the last one (UNSERVED), keeping counts', async () => {
    const p = await t.seedProject();
    const requestId = await openRequest(t, p, { departmentid: await department(p, { routing: 'pooled' }) });
    const added = await t.post(path(p, requestId, '/participants'), { token: p.admin.token, body: { member: p.agent.userId } });
    expect(added.body).toMatchObject({ status: 200, participants: [p.agent.userId] });
    expect(await load(p, p.agent)).toBe(1);
    const removed = await t.delete(path(p, requestId, '/participants'), { token: p.admin.token, body: { member: p.agent.userId } });
    expect(removed.body).toMatchObject({ status: 100, participants: [] });
    expect(await load(p, p.agent)).toBe(0);
  });

  it('answers 409 for a member already there, 400 for a stranger', async () => {
    const p = await t.seedProject();
    await onlyAvailable(t, p, [p.agent]);
    const requestId = await openRequest(t, p);
    expect((await t.post(path(p, requestId, '/participants'), { token: p.owner.token, body: { member: p.agent.userId } })).status).toBe(409);
    expect((await t.post(path(p, requestId, '/participants'), { token: p.owner.token, body: { member: 'nobody' } })).body.field).toBe('member');
  });

  it('answers 200 with the request unchanged for removing (query member form) someone who does not take part', async () => {
    const p = await t.seedProject();
    await onlyAvailable(t, p, [p.agent]);
    const requestId = await openRequest(t, p);
    const res = await t.delete(path(p, requestId, `/participants?member=${p.admin.userId}`), { token: p.owner.token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ request_id: requestId, participants: [p.agent.userId] });
  });

  it('replaces the participants from a JSON array, bots included', async () => {
    const p = await t.seedProject();
    await onlyAvailable(t, p, [p.agent]);
    const requestId = await openRequest(t, p);
    const bot = (await t.post(`/v3/${p.projectId}/bots`, { token: p.owner.token, body: { name: 'Helper', template: 'blank' } })).body._id;
    const res = await t.put(path(p, requestId, '/participants'), { token: p.owner.token, body: [p.admin.userId, `bot_${bot}`] });
    expect(res.body).toMatchObject({ participants: [p.admin.userId, `bot_${bot}`], participatingAgents: [p.admin.userId], participatingBots: [bot], hasBot: true });
    expect(await load(p, p.agent)).toBe(0);
    expect(await load(p, p.admin)).toBe(1);
  });

  it('keeps the counts in step with close and reopen', async () => {
    const p = await t.seedProject();
    await onlyAvailable(t, p, [p.agent]);
    const requestId = await openRequest(t, p);
    await close(p, requestId);
    expect(await load(p, p.agent)).toBe(0);
    await t.put(path(p, requestId, '/reopen'), { token: p.owner.token });
    expect(await load(p, p.agent)).toBe(1);
  });

  it('needs the agent role', async () => {
    const p = await t.seedProject();
    const requestId = await openRequest(t, p);
    expect((await t.post(path(p, requestId, '/participants'), { token: p.guest.token, body: { member: p.agent.userId } })).status).toBe(403);
  });
});
