import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, type SeededProject, type TestApp } from './helpers/app.js';
import { productionMode } from './helpers/environment.js';
import { connect, subscribe } from './helpers/realtime.js';

// Teammate changes reach every open console live: an agent following `projectEvents` hears of a
// teammate's availability, role, name and removal within a second (on any node, in production
// mode), and one's own presence in a project just created or joined is right at once.

let t: TestApp;
let url: string;
let p: SeededProject;

beforeAll(async () => {
  const started = await createTestServer();
  t = started.client;
  url = started.server.url;
  p = await t.seedProject('Live team');
});
afterAll(() => t?.close());

const eventsQuery = `subscription($p: String!, $after: Int) { projectEvents(project_id: $p, after: $after) { seq name subject payload } }`;
const lastSeq = async (projectId: string) => Number((await t.infra.database.prisma.project.findUniqueOrThrow({ where: { id: projectId } })).eventSeq);

interface Event {
  seq: number;
  name: string;
  subject: string;
  payload: Record<string, unknown>;
}

/** An open console of `token`: a socket following the project's events from now on. */
async function console_(token: string, projectId = p.projectId) {
  const socket = connect(url, token);
  await socket.ready;
  const events = subscribe<Event>(socket.client, eventsQuery, { p: projectId, after: await lastSeq(projectId) });
  return { socket, events, close: () => socket.client.dispose() };
}

const within = 1_000;

/** The teammate record of `userId` in a project. */
const membershipOf = async (projectId: string, userId: string, token: string) =>
  (await t.get(`/v3/${projectId}/project_users/users/${userId}`, { token })).body[0] as { _id: string; presence: unknown };

describe('your own presence', () => {
  it('is online within a second in a project you create while your websocket is open', async () => {
    const ann = await t.newUser('ann');
    const socket = connect(url, ann.token);
    await socket.ready;
    await expect.poll(() => t.services.presence.liveConnections(ann.user._id)).toBe(1);
    const created = await t.post('/v3/projects', { token: ann.token, body: { name: 'Fresh' } });
    expect(created.status).toBe(200);
    // A listener on the join's event sets it, moments after the answer.
    await expect.poll(async () => (await membershipOf(created.body._id, ann.user._id, ann.token)).presence, { timeout: within }).toMatchObject({ status: 'online' });
    const me = await membershipOf(created.body._id, ann.user._id, ann.token);
    const events = subscribe<Event>(socket.client, eventsQuery, { p: created.body._id, after: 0 });
    const presence = await events.waitFor((e) => e.name === 'project_user.presence');
    expect(presence).toMatchObject({ subject: me._id, payload: { presence: 'online' } });
    socket.client.dispose();
  });

  it('is online within a second in a project you join by accepting an invitation, and the team hears it', async () => {
    const bob = await t.newUser('bob');
    const socket = connect(url, bob.token);
    await socket.ready;
    await expect.poll(() => t.services.presence.liveConnections(bob.user._id)).toBe(1);
    const watcher = await console_(p.admin.token);
    const joined = await t.addMember(p.projectId, p.owner.token, bob);
    await expect.poll(async () => (await t.get(`/v3/${p.projectId}/project_users/${joined._id}`, { token: bob.token })).body.presence, { timeout: within }).toMatchObject({ status: 'online' });
    const heard = await watcher.events.waitFor((e) => e.name === 'project_user.presence' && e.subject === joined._id, within);
    expect(heard.payload).toEqual({ presence: 'online' });
    watcher.close();
    socket.client.dispose();
  });
});

describe('teammate changes reach an agent following projectEvents', () => {
  it('availability set by the teammate (updateMyTeammate)', async () => {
    const ann = await console_(p.agent.token);
    const res = await t.gql('mutation($p: String!) { updateMyTeammate(project_id: $p, user_available: false) { user_available } }', { p: p.projectId }, p.admin.token);
    expect(res.body.errors).toBeUndefined();
    const heard = await ann.events.waitFor((e) => e.name === 'project_user.update' && e.subject === p.admin.teammateId, within);
    expect(heard.payload).toEqual({ fields: ['user_available'] });
    ann.close();
    await t.gql('mutation($p: String!) { updateMyTeammate(project_id: $p, user_available: true) { user_available } }', { p: p.projectId }, p.admin.token);
  });

  it('availability and role set by an admin (updateTeammate)', async () => {
    const ann = await console_(p.agent.token);
    const res = await t.put(`/v3/${p.projectId}/project_users/${p.user.teammateId}`, { token: p.owner.token, body: { role: 'agent', user_available: false } });
    expect(res.status).toBe(200);
    const heard = await ann.events.waitFor((e) => e.name === 'project_user.update' && e.subject === p.user.teammateId, within);
    expect(heard.payload.fields).toEqual(expect.arrayContaining(['role', 'user_available']));
    ann.close();
    await t.put(`/v3/${p.projectId}/project_users/${p.user.teammateId}`, { token: p.owner.token, body: { role: 'user' } });
  });

  it('a name change, in every project of the teammate (updateMe)', async () => {
    const other = await t.post('/v3/projects', { token: p.admin.token, body: { name: 'Second home' } });
    const otherMembership = await membershipOf(other.body._id, p.admin.userId, p.admin.token);
    const here = await console_(p.agent.token);
    const there = await console_(p.admin.token, other.body._id);
    const res = await t.gql('mutation { updateMe(firstname: "Adele", lastname: "Admin") { firstname lastname fullName } }', {}, p.admin.token);
    expect(res.body.data.updateMe).toEqual({ firstname: 'Adele', lastname: 'Admin', fullName: 'Adele Admin' });
    const [a, b] = await Promise.all([
      here.events.waitFor((e) => e.name === 'project_user.update' && e.subject === p.admin.teammateId, within),
      there.events.waitFor((e) => e.name === 'project_user.update' && e.subject === otherMembership._id, within),
    ]);
    expect(a.payload).toEqual({ fields: ['firstname', 'lastname'] });
    expect(b.payload).toEqual({ fields: ['firstname', 'lastname'] });
    // The teammate record shows the new name at once.
    const teammate = await t.get(`/v3/${p.projectId}/project_users/${p.admin.teammateId}`, { token: p.agent.token });
    expect(teammate.body.id_user).toMatchObject({ firstname: 'Adele', lastname: 'Admin' });
    here.close();
    there.close();
  });

  it('a removal (removeTeammate)', async () => {
    const carl = await t.newUser('carl');
    const joined = await t.addMember(p.projectId, p.owner.token, carl);
    const ann = await console_(p.agent.token);
    const res = await t.delete(`/v3/${p.projectId}/project_users/${joined._id}`, { token: p.owner.token });
    expect(res.status).toBe(200);
    await ann.events.waitFor((e) => e.name === 'project_user.delete' && e.subject === joined._id, within);
    ann.close();
  });
});

describe('PATCH /v3/auth/me (updateMe)', () => {
  it('changes the caller\'s name over REST', async () => {
    const dora = await t.newUser('dora');
    const res = await t.patch('/v3/auth/me', { token: dora.token, body: { lastname: 'Explorer' } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ firstname: 'dora', lastname: 'Explorer' });
    expect((await t.get('/v3/auth/me', { token: dora.token })).body.lastname).toBe('Explorer');
  });

  it('answers 400 naming firstname when neither name is given, and 401 without credentials', async () => {
    const dora = await t.newUser('dora');
    const empty = await t.patch('/v3/auth/me', { token: dora.token, body: {} });
    expect(empty.status).toBe(400);
    expect(empty.body).toMatchObject({ code: 'BAD_USER_INPUT', field: 'firstname' });
    expect((await t.patch('/v3/auth/me', { body: { firstname: 'x' } })).status).toBe(401);
  });

  it('is refused to an anonymous visitor', async () => {
    expect((await t.patch('/v3/auth/me', { token: p.guest.token, body: { firstname: 'x' } })).status).toBe(403);
  });
});

describe.skipIf(!productionMode)('on every node', () => {
  let second: { client: TestApp; url: string };
  beforeAll(async () => {
    const { config } = t.infra;
    const started = await createTestServer({}, { databaseUrl: config.databaseUrl, prefix: config.redisPrefix });
    second = { client: started.client, url: started.server.url };
  });
  afterAll(() => second?.client.close());

  it('an agent on node A hears of an availability change made on node B within a second', async () => {
    const ann = await console_(p.agent.token);
    const res = await second.client.put(`/v3/${p.projectId}/project_users/${p.admin.teammateId}`, { token: p.owner.token, body: { user_available: false } });
    expect(res.status).toBe(200);
    await ann.events.waitFor((e) => e.name === 'project_user.update' && e.subject === p.admin.teammateId, within);
    ann.close();
    await second.client.put(`/v3/${p.projectId}/project_users/${p.admin.teammateId}`, { token: p.owner.token, body: { user_available: true } });
  });

  it('an agent on node A hears of a name change made on node B within a second', async () => {
    const ann = await console_(p.agent.token);
    const res = await second.client.patch('/v3/auth/me', { token: p.user.token, body: { firstname: 'Uma' } });
    expect(res.status).toBe(200);
    await ann.events.waitFor((e) => e.name === 'project_user.update' && e.subject === p.user.teammateId, within);
    ann.close();
  });

  it('your presence is right within a second in a project you create on node B while your socket is open on node A', async () => {
    const erin = await t.newUser('erin');
    const socket = connect(url, erin.token);
    await socket.ready;
    await expect.poll(() => t.services.presence.liveConnections(erin.user._id)).toBe(1);
    const created = await second.client.post('/v3/projects', { token: erin.token, body: { name: 'Made on B' } });
    await expect.poll(async () => (await membershipOf(created.body._id, erin.user._id, erin.token)).presence, { timeout: within }).toMatchObject({ status: 'online' });
    socket.client.dispose();
  });
});
