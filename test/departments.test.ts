import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedTestApp, type SeededProject, type TestApp } from './helpers/app.js';
import { defaultOfflineMessage, defaultOnlineMessage } from '../src/modules/departments/service.js';

let t: TestApp;
let p: SeededProject;
let other: SeededProject;

beforeAll(async () => {
  t = await sharedTestApp();
  p = await t.seedProject('Departments');
  other = await t.seedProject('Elsewhere');
});
afterAll(() => t.close());

const path = (rest = '') => `/v3/${p.projectId}/departments${rest}`;

async function createDepartment(body: Record<string, unknown> = {}) {
  const res = await t.post(path(), { token: p.owner.token, body: { name: `Sales ${Math.random()}`, ...body } });
  expect(res.status).toBe(200);
  return res.body;
}

async function createGroup(name = 'Tier 1', projectId = p.projectId) {
  const res = await t.post(`/v3/${projectId}/groups`, { token: p.owner.token, body: { name } });
  expect(res.status).toBe(200);
  return res.body._id as string;
}

async function eventNames(subject: string) {
  const events = await t.infra.database.prisma.domainEvent.findMany({ where: { subject }, orderBy: { seq: 'asc' } });
  return events.map((e) => e.name);
}

describe('default department', () => {
  it('exists in a new project with routing assigned', async () => {
    const res = await t.get(path(), { token: p.owner.token });
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(1);
    expect(res.body[0]).toMatchObject({ name: 'Default Department', routing: 'assigned', default: true, status: 1 });
  });

  it('is returned for the id `default`', async () => {
    const res = await t.get(path('/default'), { token: p.agent.token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ default: true, name: 'Default Department' });
  });

  it('cannot be deleted', async () => {
    const res = await t.delete(path('/default'), { token: p.owner.token });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, code: 'BAD_USER_INPUT', field: 'id' });
  });
});

describe('POST /departments', () => {
  it('creates a pooled, visible department with the standard fields', async () => {
    const res = await t.post(path(), { token: p.admin.token, body: { name: 'Support' } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      name: 'Support',
      routing: 'pooled',
      status: 1,
      default: false,
      groups: [],
      id_group: null,
      id_bot: null,
      // The documented defaults (README, Departments): the spec shows strings.
      online_msg: defaultOnlineMessage,
      offline_msg: defaultOfflineMessage,
      id_project: p.projectId,
      createdBy: p.admin.userId,
      __v: 0,
    });
    expect(res.body._id).toBe(res.body.id);
    expect(await eventNames(res.body._id)).toEqual(['department.create']);
  });

  it('stores routing, messages, group and bot', async () => {
    const groupId = await createGroup();
    const bot = await t.infra.database.prisma.bot.create({
      data: { id_project: p.projectId, name: 'Helper', secret: 's', createdBy: p.owner.userId },
    });
    const res = await t.post(path(), {
      token: p.owner.token,
      body: { name: 'Billing', routing: 'assigned', id_group: groupId, id_bot: bot.id, online_msg: 'Hi', offline_msg: 'Later' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ routing: 'assigned', id_group: groupId, id_bot: bot.id, online_msg: 'Hi', offline_msg: 'Later' });
  });

  it('answers 400 naming a missing name', async () => {
    const res = await t.post(path(), { token: p.owner.token, body: { routing: 'pooled' } });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'BAD_USER_INPUT', field: 'name' });
  });

  it('answers 400 naming an unknown routing', async () => {
    const res = await t.post(path(), { token: p.owner.token, body: { name: 'X', routing: 'random' } });
    expect(res.status).toBe(400);
    expect(res.body.field).toBe('routing');
  });

  it('answers 400 naming a group of no such id', async () => {
    const res = await t.post(path(), { token: p.owner.token, body: { name: 'X', id_group: 'nope' } });
    expect(res.status).toBe(400);
    expect(res.body.field).toBe('id_group');
  });

  it('answers 400 naming a group of another project', async () => {
    const foreign = await t.post(`/v3/${other.projectId}/groups`, { token: other.owner.token, body: { name: 'Theirs' } });
    const res = await t.post(path(), { token: p.owner.token, body: { name: 'X', id_group: foreign.body._id } });
    expect(res.status).toBe(400);
    expect(res.body.field).toBe('id_group');
  });

  it('answers 400 naming a bot of no such id', async () => {
    const res = await t.post(path(), { token: p.owner.token, body: { name: 'X', id_bot: 'nope' } });
    expect(res.status).toBe(400);
    expect(res.body.field).toBe('id_bot');
  });

  it('answers 400 naming a status other than 0 or 1', async () => {
    const res = await t.post(path(), { token: p.owner.token, body: { name: 'X', status: 2 } });
    expect(res.status).toBe(400);
    expect(res.body.field).toBe('status');
  });
});

describe('groups load distribution', () => {
  it('stores shares that add up to at most 100', async () => {
    const [a, b] = [await createGroup('A'), await createGroup('B')];
    const groups = [
      { id_group: a, percentage: 70 },
      { id_group: b, percentage: 30 },
    ];
    const res = await t.post(path(), { token: p.owner.token, body: { name: 'Split', groups } });
    expect(res.status).toBe(200);
    expect(res.body.groups).toEqual(groups);
  });

  it('answers 400 when a percentage is above 100', async () => {
    const a = await createGroup();
    const res = await t.post(path(), { token: p.owner.token, body: { name: 'X', groups: [{ id_group: a, percentage: 101 }] } });
    expect(res.status).toBe(400);
    expect(res.body.field).toBe('groups.0.percentage');
  });

  it('answers 400 when a percentage is negative', async () => {
    const a = await createGroup();
    const res = await t.post(path(), { token: p.owner.token, body: { name: 'X', groups: [{ id_group: a, percentage: -1 }] } });
    expect(res.status).toBe(400);
    expect(res.body.field).toBe('groups.0.percentage');
  });

  it('answers 400 when the percentages add up to more than 100', async () => {
    const [a, b] = [await createGroup('A'), await createGroup('B')];
    const res = await t.post(path(), {
      token: p.owner.token,
      body: { name: 'X', groups: [{ id_group: a, percentage: 60 }, { id_group: b, percentage: 50 }] },
    });
    expect(res.status).toBe(400);
    expect(res.body.field).toBe('groups');
    expect(res.body.message).toMatch(/100/);
  });

  it('answers 400 naming an unknown group in the shares', async () => {
    const res = await t.post(path(), { token: p.owner.token, body: { name: 'X', groups: [{ id_group: 'nope', percentage: 10 }] } });
    expect(res.status).toBe(400);
    expect(res.body.field).toBe('groups.0.id_group');
  });
});

describe('GET /departments', () => {
  it('lists only visible departments while allstatus lists all', async () => {
    const hidden = await createDepartment({ status: 0 });
    const visible = (await t.get(path(), { token: p.agent.token })).body.map((d: { _id: string }) => d._id);
    const all = await t.get(path('/allstatus'), { token: p.agent.token });
    expect(all.status).toBe(200);
    expect(visible).not.toContain(hidden._id);
    expect(all.body.map((d: { _id: string }) => d._id)).toContain(hidden._id);
  });

  it('returns one department by id', async () => {
    const created = await createDepartment();
    const res = await t.get(path(`/${created._id}`), { token: p.agent.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(created);
  });

  it('answers 404 for an unknown id', async () => {
    expect((await t.get(path('/unknown'), { token: p.agent.token })).status).toBe(404);
  });
});

describe('PUT and PATCH /departments/:id', () => {
  it('PUT replaces the department: fields left out return to their defaults', async () => {
    const created = await createDepartment({ routing: 'assigned', online_msg: 'Hello', attributes: { a: 1 } });
    const res = await t.put(path(`/${created._id}`), { token: p.owner.token, body: { name: 'Renamed' } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: 'Renamed', routing: 'pooled', online_msg: defaultOnlineMessage, attributes: {}, __v: 1 });
    expect(await eventNames(created._id)).toEqual(['department.create', 'department.update']);
  });

  it('PUT requires the name', async () => {
    const created = await createDepartment();
    const res = await t.put(path(`/${created._id}`), { token: p.owner.token, body: { routing: 'assigned' } });
    expect(res.status).toBe(400);
    expect(res.body.field).toBe('name');
  });

  it('PUT keeps the default department default', async () => {
    const res = await t.put(path('/default'), { token: p.owner.token, body: { name: 'Front desk', routing: 'assigned' } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: 'Front desk', default: true });
  });

  it('PATCH changes only the fields given', async () => {
    const created = await createDepartment({ routing: 'assigned', online_msg: 'Hello' });
    const res = await t.patch(path(`/${created._id}`), { token: p.owner.token, body: { offline_msg: 'Bye', status: 0 } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: created.name, routing: 'assigned', online_msg: 'Hello', offline_msg: 'Bye', status: 0 });
  });

  it('PATCH clears a group or message given as an empty string', async () => {
    const groupId = await createGroup();
    const created = await createDepartment({ id_group: groupId, online_msg: 'Hello' });
    const res = await t.patch(path(`/${created._id}`), { token: p.owner.token, body: { id_group: '', online_msg: '' } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id_group: null, online_msg: defaultOnlineMessage });
  });

  it('PATCH validates the shares like POST', async () => {
    const created = await createDepartment();
    const a = await createGroup();
    const res = await t.patch(path(`/${created._id}`), { token: p.owner.token, body: { groups: [{ id_group: a, percentage: 120 }] } });
    expect(res.status).toBe(400);
    expect(res.body.field).toBe('groups.0.percentage');
  });
});

describe('DELETE /departments/:id', () => {
  it('returns the deleted department, which is then gone', async () => {
    const created = await createDepartment();
    const res = await t.delete(path(`/${created._id}`), { token: p.owner.token });
    expect(res.status).toBe(200);
    expect(res.body._id).toBe(created._id);
    expect((await t.get(path(`/${created._id}`), { token: p.owner.token })).status).toBe(404);
    expect(await eventNames(created._id)).toEqual(['department.create', 'department.delete']);
  });
});

describe('roles', () => {
  it('lets a guest read the visible departments only', async () => {
    expect((await t.get(path(), { token: p.guest.token })).status).toBe(200);
    expect((await t.get(path('/allstatus'), { token: p.guest.token })).status).toBe(403);
    expect((await t.get(path('/default'), { token: p.guest.token })).status).toBe(403);
  });

  it('lets an agent read but not write', async () => {
    expect((await t.get(path('/allstatus'), { token: p.agent.token })).status).toBe(200);
    expect((await t.post(path(), { token: p.agent.token, body: { name: 'No' } })).status).toBe(403);
    expect((await t.patch(path('/default'), { token: p.agent.token, body: { name: 'No' } })).status).toBe(403);
    expect((await t.delete(path('/default'), { token: p.agent.token })).status).toBe(403);
  });

  it('answers 403 to a user below agent reading all departments', async () => {
    expect((await t.get(path('/allstatus'), { token: p.user.token })).status).toBe(403);
  });

  it('answers 401 without credentials', async () => {
    expect((await t.get(path())).status).toBe(401);
    expect((await t.post(path(), { body: { name: 'No' } })).status).toBe(401);
  });
});

describe('tenancy', () => {
  it('answers 404 to another project owner naming their own project', async () => {
    const created = await createDepartment();
    const url = `/v3/${other.projectId}/departments/${created._id}`;
    expect((await t.get(url, { token: other.owner.token })).status).toBe(404);
    expect((await t.put(url, { token: other.owner.token, body: { name: 'Mine' } })).status).toBe(404);
    expect((await t.delete(url, { token: other.owner.token })).status).toBe(404);
  });

  it('answers 403 to another project owner naming this project', async () => {
    const created = await createDepartment();
    expect((await t.get(path(`/${created._id}`), { token: other.owner.token })).status).toBe(403);
    expect((await t.get(path(), { token: other.owner.token })).status).toBe(403);
  });
});

describe('GraphQL', () => {
  const fields = '_id name routing status default groups { id_group percentage } online_msg';

  it('creates, reads, patches, replaces and deletes a department', async () => {
    const token = p.owner.token;
    const vars = { project_id: p.projectId };
    const created = await t.gql(
      `mutation($project_id: String!) { createDepartment(project_id: $project_id, name: "Ops", online_msg: "On") { ${fields} } }`,
      vars,
      token,
    );
    const id = created.body.data.createDepartment._id;
    expect(created.body.data.createDepartment).toMatchObject({ name: 'Ops', routing: 'pooled', online_msg: 'On' });

    const read = await t.gql(`query($project_id: String!, $id: String!) { department(project_id: $project_id, id: $id) { ${fields} } }`, { ...vars, id }, token);
    expect(read.body.data.department.name).toBe('Ops');

    const patched = await t.gql(
      `mutation($project_id: String!, $id: String!) { updateDepartment(project_id: $project_id, id: $id, online_msg: null, routing: "assigned") { ${fields} } }`,
      { ...vars, id },
      token,
    );
    expect(patched.body.data.updateDepartment).toMatchObject({ routing: 'assigned', online_msg: defaultOnlineMessage, name: 'Ops' });

    const replaced = await t.gql(
      `mutation($project_id: String!, $id: String!) { replaceDepartment(project_id: $project_id, id: $id, name: "Ops 2") { ${fields} } }`,
      { ...vars, id },
      token,
    );
    expect(replaced.body.data.replaceDepartment).toMatchObject({ name: 'Ops 2', routing: 'pooled' });

    const listed = await t.gql(`query($project_id: String!) { allDepartments(project_id: $project_id) { _id } }`, vars, token);
    expect(listed.body.data.allDepartments.map((d: { _id: string }) => d._id)).toContain(id);

    const deleted = await t.gql(`mutation($project_id: String!, $id: String!) { deleteDepartment(project_id: $project_id, id: $id) { _id } }`, { ...vars, id }, token);
    expect(deleted.body.data.deleteDepartment._id).toBe(id);
  });

  it('reports a bad share as BAD_USER_INPUT naming the field', async () => {
    const res = await t.gql(
      `mutation($project_id: String!) { createDepartment(project_id: $project_id, name: "X", groups: [{ id_group: "g", percentage: 200 }]) { _id } }`,
      { project_id: p.projectId },
      p.owner.token,
    );
    expect(res.body.errors?.[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'groups.0.percentage' });
  });

  it('refuses an agent creating a department', async () => {
    const res = await t.gql(`mutation($project_id: String!) { createDepartment(project_id: $project_id, name: "X") { _id } }`, { project_id: p.projectId }, p.agent.token);
    expect(res.body.errors?.[0].extensions?.code).toBe('FORBIDDEN');
  });
});
