import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedTestApp, type SeededProject, type TestApp } from './helpers/app.js';

let t: TestApp;
let p: SeededProject;
let other: SeededProject;

beforeAll(async () => {
  t = await sharedTestApp();
  p = await t.seedProject('Groups');
  other = await t.seedProject('Elsewhere');
});
afterAll(() => t.close());

const path = (rest = '') => `/v3/${p.projectId}/groups${rest}`;

async function createGroup(body: Record<string, unknown> = {}) {
  const res = await t.post(path(), { token: p.admin.token, body: { name: 'Tier 1', ...body } });
  expect(res.status).toBe(200);
  return res.body;
}

async function eventNames(subject: string) {
  const events = await t.infra.database.prisma.domainEvent.findMany({ where: { subject }, orderBy: { seq: 'asc' } });
  return events.map((e) => e.name);
}

describe('POST /groups', () => {
  it('creates a group with the standard fields', async () => {
    const res = await t.post(path(), { token: p.admin.token, body: { name: 'Escalations' } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      name: 'Escalations',
      members: [],
      trashed: false,
      attributes: {},
      id_project: p.projectId,
      createdBy: p.admin.userId,
      __v: 0,
    });
    expect(res.body._id).toBe(res.body.id);
    expect(await eventNames(res.body._id)).toEqual(['group.create']);
  });

  it('stores members named by teammate id or user id as user ids, once each', async () => {
    const group = await createGroup({ members: [p.agent.teammateId, p.admin.userId, p.agent.userId] });
    expect(group.members).toEqual([p.agent.userId, p.admin.userId]);
  });

  it('answers 400 naming an unknown member', async () => {
    const res = await t.post(path(), { token: p.admin.token, body: { name: 'X', members: [p.agent.userId, 'ghost-id'] } });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'BAD_USER_INPUT', field: 'members' });
    expect(res.body.message).toContain('ghost-id');
  });

  it('answers 400 for a member of another project only', async () => {
    const res = await t.post(path(), { token: p.admin.token, body: { name: 'X', members: [other.agent.userId] } });
    expect(res.status).toBe(400);
    expect(res.body.message).toContain(other.agent.userId);
  });

  it('answers 400 naming a missing name', async () => {
    const res = await t.post(path(), { token: p.admin.token, body: { members: [] } });
    expect(res.status).toBe(400);
    expect(res.body.field).toBe('name');
  });
});

describe('GET /groups', () => {
  it('lists groups that are not deleted', async () => {
    const kept = await createGroup({ name: 'Kept' });
    const gone = await createGroup({ name: 'Gone' });
    await t.delete(path(`/${gone._id}`), { token: p.admin.token });
    const res = await t.get(path(), { token: p.agent.token });
    expect(res.status).toBe(200);
    const ids = res.body.map((g: { _id: string }) => g._id);
    expect(ids).toContain(kept._id);
    expect(ids).not.toContain(gone._id);
  });

  it('returns one group by id', async () => {
    const group = await createGroup();
    const res = await t.get(path(`/${group._id}`), { token: p.agent.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(group);
  });

  it('answers 404 for an unknown id', async () => {
    expect((await t.get(path('/unknown'), { token: p.agent.token })).status).toBe(404);
  });
});

describe('PUT /groups/:id', () => {
  it('changes the name and replaces the members', async () => {
    const group = await createGroup({ members: [p.agent.userId] });
    const res = await t.put(path(`/${group._id}`), { token: p.admin.token, body: { name: 'Tier 2', members: [p.owner.teammateId] } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: 'Tier 2', members: [p.owner.userId], __v: 1 });
    expect(await eventNames(group._id)).toEqual(['group.create', 'group.update']);
  });

  it('keeps the members when only the name is given', async () => {
    const group = await createGroup({ members: [p.agent.userId] });
    const res = await t.put(path(`/${group._id}`), { token: p.admin.token, body: { name: 'Renamed' } });
    expect(res.body.members).toEqual([p.agent.userId]);
  });

  it('answers 400 naming an unknown member', async () => {
    const group = await createGroup();
    const res = await t.put(path(`/${group._id}`), { token: p.admin.token, body: { members: ['nobody'] } });
    expect(res.status).toBe(400);
    expect(res.body.field).toBe('members');
    expect(res.body.message).toContain('nobody');
  });

  it('answers 404 for a deleted group', async () => {
    const group = await createGroup();
    await t.delete(path(`/${group._id}`), { token: p.admin.token });
    expect((await t.put(path(`/${group._id}`), { token: p.admin.token, body: { name: 'Back' } })).status).toBe(404);
  });
});

describe('DELETE /groups/:id', () => {
  it('marks the group trashed and returns it', async () => {
    const group = await createGroup();
    const res = await t.delete(path(`/${group._id}`), { token: p.admin.token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ _id: group._id, trashed: true });
    const read = await t.get(path(`/${group._id}`), { token: p.agent.token });
    expect(read.body.trashed).toBe(true);
    expect(await eventNames(group._id)).toEqual(['group.create', 'group.delete']);
  });

  it('answers 409 naming the department that routes to the group', async () => {
    const group = await createGroup();
    const dept = await t.post(`/v3/${p.projectId}/departments`, { token: p.admin.token, body: { name: 'Uses it', id_group: group._id } });
    const res = await t.delete(path(`/${group._id}`), { token: p.admin.token });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('CONFLICT');
    expect(res.body.message).toContain(dept.body._id);
    expect((await t.get(path(`/${group._id}`), { token: p.admin.token })).body.trashed).toBe(false);
  });

  it('answers 409 when a department shares its requests with the group', async () => {
    const group = await createGroup();
    const dept = await t.post(`/v3/${p.projectId}/departments`, {
      token: p.admin.token,
      body: { name: 'Shares', groups: [{ id_group: group._id, percentage: 50 }] },
    });
    const res = await t.delete(path(`/${group._id}`), { token: p.admin.token });
    expect(res.status).toBe(409);
    expect(res.body.message).toContain('Shares');
    expect(res.body.message).toContain(dept.body._id);
  });
});

describe('roles', () => {
  it('lets an agent read but not write', async () => {
    const group = await createGroup();
    expect((await t.get(path(), { token: p.agent.token })).status).toBe(200);
    expect((await t.get(path(`/${group._id}`), { token: p.agent.token })).status).toBe(200);
    expect((await t.post(path(), { token: p.agent.token, body: { name: 'No' } })).status).toBe(403);
    expect((await t.put(path(`/${group._id}`), { token: p.agent.token, body: { name: 'No' } })).status).toBe(403);
    expect((await t.delete(path(`/${group._id}`), { token: p.agent.token })).status).toBe(403);
  });

  it('answers 403 to a user below agent', async () => {
    expect((await t.get(path(), { token: p.user.token })).status).toBe(403);
  });

  it('answers 401 without credentials', async () => {
    expect((await t.get(path())).status).toBe(401);
  });
});

describe('tenancy', () => {
  it('answers 404 to another project owner naming their own project', async () => {
    const group = await createGroup();
    const url = `/v3/${other.projectId}/groups/${group._id}`;
    expect((await t.get(url, { token: other.owner.token })).status).toBe(404);
    expect((await t.put(url, { token: other.owner.token, body: { name: 'Mine' } })).status).toBe(404);
    expect((await t.delete(url, { token: other.owner.token })).status).toBe(404);
  });

  it('answers 403 to another project owner naming this project', async () => {
    const group = await createGroup();
    expect((await t.get(path(`/${group._id}`), { token: other.owner.token })).status).toBe(403);
  });
});

describe('GraphQL', () => {
  it('creates, reads, updates and deletes a group', async () => {
    const token = p.owner.token;
    const vars = { project_id: p.projectId };
    const created = await t.gql(
      `mutation($project_id: String!, $members: [String!]) { createGroup(project_id: $project_id, name: "Night", members: $members) { _id name members } }`,
      { ...vars, members: [p.agent.teammateId] },
      token,
    );
    const group = created.body.data.createGroup;
    expect(group).toMatchObject({ name: 'Night', members: [p.agent.userId] });

    const updated = await t.gql(
      `mutation($project_id: String!, $id: String!) { updateGroup(project_id: $project_id, id: $id, name: "Late") { name members } }`,
      { ...vars, id: group._id },
      token,
    );
    expect(updated.body.data.updateGroup).toEqual({ name: 'Late', members: [p.agent.userId] });

    const listed = await t.gql(`query($project_id: String!) { groups(project_id: $project_id) { _id } }`, vars, token);
    expect(listed.body.data.groups.map((g: { _id: string }) => g._id)).toContain(group._id);

    const deleted = await t.gql(
      `mutation($project_id: String!, $id: String!) { deleteGroup(project_id: $project_id, id: $id) { trashed } }`,
      { ...vars, id: group._id },
      token,
    );
    expect(deleted.body.data.deleteGroup.trashed).toBe(true);

    const read = await t.gql(`query($project_id: String!, $id: String!) { group(project_id: $project_id, id: $id) { trashed } }`, { ...vars, id: group._id }, token);
    expect(read.body.data.group.trashed).toBe(true);
  });

  it('reports an unknown member as BAD_USER_INPUT', async () => {
    const res = await t.gql(
      `mutation($project_id: String!) { createGroup(project_id: $project_id, name: "X", members: ["ghost"]) { _id } }`,
      { project_id: p.projectId },
      p.owner.token,
    );
    expect(res.body.errors?.[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'members' });
  });
});
