import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedTestApp, type SeededProject, type TestApp } from './helpers/app.js';

let t: TestApp;
let p: SeededProject;
beforeAll(async () => {
  t = await sharedTestApp();
  p = await t.seedProject();
});
afterAll(() => t.close());

describe('GET /v3/:project_id/project_users', () => {
  it('lists teammates with their user and availability', async () => {
    const res = await t.get(`/v3/${p.projectId}/project_users`, { token: p.agent.token });
    expect(res.status).toBe(200);
    const agent = res.body.find((m: { _id: string }) => m._id === p.agent.teammateId);
    expect(agent).toMatchObject({
      role: 'agent',
      user_available: true,
      status: 'active',
      id_project: p.projectId,
      isAuthenticated: true,
      trashed: false,
      profileStatus: 'available',
      presence: { status: 'offline' },
    });
    expect(agent.id_user).toMatchObject({ _id: p.agent.userId, email: p.agent.email, firstname: 'agent' });
    expect(agent.id_user.password).toBeUndefined();
  });

  it('shows the anonymous guest as not strongly authenticated', async () => {
    const res = await t.get(`/v3/${p.projectId}/project_users`, { token: p.agent.token });
    expect(res.body.find((m: { _id: string }) => m._id === p.guest.teammateId)).toMatchObject({ role: 'guest', isAuthenticated: false });
  });

  it('refuses a user below agent with 403', async () => {
    expect((await t.get(`/v3/${p.projectId}/project_users`, { token: p.user.token })).status).toBe(403);
  });
});

describe('GET one teammate', () => {
  it('finds a teammate by its teammate id', async () => {
    const res = await t.get(`/v3/${p.projectId}/project_users/${p.admin.teammateId}`, { token: p.agent.token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ _id: p.admin.teammateId, role: 'admin' });
  });

  it('finds a teammate by its user id, as a one-item array (what the official SDK reads)', async () => {
    const res = await t.get(`/v3/${p.projectId}/project_users/users/${p.admin.userId}`, { token: p.agent.token });
    expect(res.status).toBe(200);
    expect(res.body.map((m: { _id: string }) => m._id)).toEqual([p.admin.teammateId]);
  });

  it('answers 404 by user id for a user of another project only', async () => {
    const other = await t.seedProject('Elsewhere');
    const res = await t.get(`/v3/${p.projectId}/project_users/users/${other.agent.userId}`, { token: p.agent.token });
    expect(res.status).toBe(404);
    const through = await t.get(`/v3/${other.projectId}/project_users/users/${other.agent.userId}`, { token: p.agent.token });
    expect(through.status).toBe(403);
  });

  it('answers 404 for an unknown teammate', async () => {
    expect((await t.get(`/v3/${p.projectId}/project_users/nope`, { token: p.agent.token })).status).toBe(404);
  });
});

describe('POST /v3/:project_id/project_users/invite', () => {
  it('answers an existing account pending, with no teammate, and leaves it out until it accepts', async () => {
    const invitee = await t.newUser('invitee');
    const res = await t.post(`/v3/${p.projectId}/project_users/invite`, {
      token: p.admin.token,
      body: { email: invitee.email, role: 'agent', user_available: false },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, pending: true, project_user: null });
    expect(res.body.invitation).toMatchObject({ email: invitee.email, role: 'agent', user_available: false });
    expect((await t.get(`/v3/projects/${p.projectId}`, { token: invitee.token })).status).toBe(403);
  });

  it('answers 409 for a user who is already a teammate', async () => {
    const res = await t.post(`/v3/${p.projectId}/project_users/invite`, {
      token: p.admin.token,
      body: { email: p.agent.email, role: 'agent' },
    });
    expect(res.status).toBe(409);
  });

  it('answers 400 naming a role other than agent or admin', async () => {
    const res = await t.post(`/v3/${p.projectId}/project_users/invite`, {
      token: p.admin.token,
      body: { email: 'x@example.test', role: 'owner' },
    });
    expect(res.status).toBe(400);
    expect(res.body.field).toBe('role');
  });

  it('refuses an agent with 403', async () => {
    const res = await t.post(`/v3/${p.projectId}/project_users/invite`, {
      token: p.agent.token,
      body: { email: 'y@example.test', role: 'agent' },
    });
    expect(res.status).toBe(403);
  });
});

describe('PUT /v3/:project_id/project_users/ (self)', () => {
  it('updates the caller\'s availability, capacity, attributes and settings', async () => {
    const res = await t.put(`/v3/${p.projectId}/project_users/`, {
      token: p.agent.token,
      body: { user_available: false, max_served_chat: 3, attributes: { shift: 'night' }, settings: { sound: false } },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      _id: p.agent.teammateId,
      user_available: false,
      max_served_chat: 3,
      attributes: { shift: 'night' },
      settings: { sound: false },
      profileStatus: 'unavailable',
    });
    await t.put(`/v3/${p.projectId}/project_users/`, { token: p.agent.token, body: { user_available: true } });
  });

  it('does not let an agent raise their own role', async () => {
    const res = await t.put(`/v3/${p.projectId}/project_users/`, { token: p.agent.token, body: { role: 'admin' } });
    expect(res.status).toBe(403);
    expect((await t.get(`/v3/${p.projectId}/project_users/${p.agent.teammateId}`, { token: p.agent.token })).body.role).toBe('agent');
  });

  it('answers 400 naming a negative max_served_chat', async () => {
    const res = await t.put(`/v3/${p.projectId}/project_users/`, { token: p.agent.token, body: { max_served_chat: -1 } });
    expect(res.status).toBe(400);
    expect(res.body.field).toBe('max_served_chat');
  });
});

describe('PUT /v3/:project_id/project_users/:project_user_id', () => {
  it('lets an admin change another teammate\'s role', async () => {
    const q = await t.seedProject('Roles');
    const res = await t.put(`/v3/${q.projectId}/project_users/${q.agent.teammateId}`, { token: q.admin.token, body: { role: 'admin' } });
    expect(res.status).toBe(200);
    expect(res.body.role).toBe('admin');
  });

  it('does not let an admin change the owner', async () => {
    const res = await t.put(`/v3/${p.projectId}/project_users/${p.owner.teammateId}`, { token: p.admin.token, body: { role: 'agent' } });
    expect(res.status).toBe(403);
  });

  it('refuses an agent with 403', async () => {
    const res = await t.put(`/v3/${p.projectId}/project_users/${p.admin.teammateId}`, { token: p.agent.token, body: { user_available: false } });
    expect(res.status).toBe(403);
  });
});

describe('DELETE /v3/:project_id/project_users/:project_user_id', () => {
  it('marks the teammate trashed and ends their access at once', async () => {
    const q = await t.seedProject('Removal');
    const res = await t.delete(`/v3/${q.projectId}/project_users/${q.agent.teammateId}`, { token: q.admin.token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ _id: q.agent.teammateId, trashed: true });
    expect((await t.get(`/v3/projects/${q.projectId}`, { token: q.agent.token })).status).toBe(403);
    const list = await t.get(`/v3/${q.projectId}/project_users`, { token: q.admin.token });
    expect(list.body.map((m: { _id: string }) => m._id)).not.toContain(q.agent.teammateId);
  });

  it('does not remove the owner', async () => {
    const res = await t.delete(`/v3/${p.projectId}/project_users/${p.owner.teammateId}`, { token: p.admin.token });
    expect(res.status).toBe(409);
  });

  it('lets a removed teammate be invited again', async () => {
    const q = await t.seedProject('Return');
    await t.delete(`/v3/${q.projectId}/project_users/${q.agent.teammateId}`, { token: q.admin.token });
    const back = await t.addMember(q.projectId, q.admin.token, q.agent);
    expect(back).toMatchObject({ _id: q.agent.teammateId, trashed: false });
    expect((await t.get(`/v3/projects/${q.projectId}`, { token: q.agent.token })).status).toBe(200);
  });
});

describe('events', () => {
  it('logs project_user.update with an increasing sequence number', async () => {
    const before = await t.infra.eventLog.readAfter(p.projectId, 0, 10_000);
    await t.put(`/v3/${p.projectId}/project_users/`, { token: p.agent.token, body: { attributes: { x: 1 } } });
    const after = await t.infra.eventLog.readAfter(p.projectId, before.at(-1)!.seq);
    expect(after).toHaveLength(1);
    expect(after[0]).toMatchObject({ name: 'project_user.update', subject: p.agent.teammateId, seq: before.at(-1)!.seq + 1 });
  });
});

describe('GraphQL', () => {
  it('lists teammates with nested users', async () => {
    const res = await t.gql(
      'query($id: String!) { teammates(project_id: $id) { _id role id_user { email } } }',
      { id: p.projectId },
      p.agent.token,
    );
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.teammates.length).toBeGreaterThanOrEqual(5);
  });

  it('invites through a mutation, pending until the invitee accepts', async () => {
    const invitee = await t.newUser('gqlinvitee');
    const res = await t.gql(
      'mutation($id: String!, $email: String) { inviteTeammate(project_id: $id, email: $email, role: "agent") { pending project_user { role } } }',
      { id: p.projectId, email: invitee.email },
      p.owner.token,
    );
    expect(res.body.data.inviteTeammate).toEqual({ pending: true, project_user: null });
  });
});
