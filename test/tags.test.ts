import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedTestApp, type SeededProject, type TestApp } from './helpers/app.js';

let t: TestApp;
let p: SeededProject;
let other: SeededProject;

beforeAll(async () => {
  t = await sharedTestApp();
  p = await t.seedProject('Tags');
  other = await t.seedProject('Elsewhere');
});
afterAll(() => t.close());

const path = (rest = '') => `/v3/${p.projectId}/tags${rest}`;
let counter = 0;

async function createTag(body: Record<string, unknown> = {}) {
  const res = await t.post(path(), { token: p.agent.token, body: { tag: `tag-${++counter}`, ...body } });
  expect(res.status).toBe(200);
  return res.body;
}

describe('POST /tags', () => {
  it('creates a tag with the default color', async () => {
    const res = await t.post(path(), { token: p.agent.token, body: { tag: 'billing' } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      tag: 'billing',
      color: '#43B1F2',
      attributes: {},
      id_project: p.projectId,
      createdBy: p.agent.userId,
      __v: 0,
    });
    expect(res.body._id).toBe(res.body.id);
  });

  it('stores a hex color and attributes', async () => {
    const tag = await createTag({ color: '#ff0000', attributes: { icon: 'fire' } });
    expect(tag).toMatchObject({ color: '#ff0000', attributes: { icon: 'fire' } });
  });

  it('returns the existing tag for a name the project already has', async () => {
    const first = await createTag({ tag: 'vip', color: '#00ff00' });
    const again = await t.post(path(), { token: p.owner.token, body: { tag: 'vip', color: '#000000' } });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first);
    expect(await t.infra.database.prisma.tag.count({ where: { id_project: p.projectId, tag: 'vip' } })).toBe(1);
  });

  it('allows the same name in another project', async () => {
    await createTag({ tag: 'shared-name' });
    const res = await t.post(`/v3/${other.projectId}/tags`, { token: other.owner.token, body: { tag: 'shared-name' } });
    expect(res.status).toBe(200);
    expect(res.body.id_project).toBe(other.projectId);
  });

  it('answers 400 naming a color that is not hexadecimal', async () => {
    const res = await t.post(path(), { token: p.agent.token, body: { tag: 'red', color: 'red' } });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'BAD_USER_INPUT', field: 'color' });
  });

  it('answers 400 naming a name of the wrong type, with the request_id of the call like every error body', async () => {
    const res = await t.post(path(), { token: p.agent.token, body: { tag: 5 } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ success: false, code: 'BAD_USER_INPUT', field: 'tag', message: 'tag: must be a string', request_id: res.headers.get('x-request-id') });
  });

  it('answers 400 naming a missing name', async () => {
    const res = await t.post(path(), { token: p.agent.token, body: { color: '#fff' } });
    expect(res.status).toBe(400);
    expect(res.body.field).toBe('tag');
  });
});

describe('GET /tags', () => {
  let project: SeededProject;
  const names = ['bravo', 'alpha', 'charlie'];
  beforeAll(async () => {
    project = await t.seedProject('Listing');
    for (const tag of names) await t.post(`/v3/${project.projectId}/tags`, { token: project.owner.token, body: { tag } });
  });
  const list = (query = '') => t.get(`/v3/${project.projectId}/tags${query}`, { token: project.agent.token });

  it('lists newest first by default', async () => {
    const res = await list();
    expect(res.status).toBe(200);
    expect(res.body.map((x: { tag: string }) => x.tag)).toEqual([...names].reverse());
  });

  it('sorts by sortField and direction', async () => {
    expect((await list('?sortField=tag&direction=1')).body.map((x: { tag: string }) => x.tag)).toEqual(['alpha', 'bravo', 'charlie']);
    expect((await list('?sortField=tag&direction=-1')).body.map((x: { tag: string }) => x.tag)).toEqual(['charlie', 'bravo', 'alpha']);
  });

  it('pages with page (0 first) and limit', async () => {
    const first = await list('?sortField=tag&direction=1&limit=2');
    const second = await list('?sortField=tag&direction=1&limit=2&page=1');
    expect(first.body.map((x: { tag: string }) => x.tag)).toEqual(['alpha', 'bravo']);
    expect(second.body.map((x: { tag: string }) => x.tag)).toEqual(['charlie']);
  });

  it('answers 400 naming an unknown sortField', async () => {
    const res = await list('?sortField=secret');
    expect(res.status).toBe(400);
    expect(res.body.field).toBe('sortField');
  });

  it('answers 400 naming a direction other than 1 or -1', async () => {
    const res = await list('?direction=2');
    expect(res.status).toBe(400);
    expect(res.body.field).toBe('direction');
  });

  it('answers 400 naming a negative page', async () => {
    const res = await list('?page=-1');
    expect(res.status).toBe(400);
    expect(res.body.field).toBe('page');
  });

  it('returns one tag by id', async () => {
    const tag = await createTag();
    const res = await t.get(path(`/${tag._id}`), { token: p.agent.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(tag);
  });
});

describe('PUT /tags/:id', () => {
  it('renames and recolors a tag', async () => {
    const tag = await createTag();
    const res = await t.put(path(`/${tag._id}`), { token: p.agent.token, body: { tag: 'renamed', color: '#123abc' } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ tag: 'renamed', color: '#123abc', __v: 1 });
  });

  it('answers 409 for a name another tag has', async () => {
    await createTag({ tag: 'taken' });
    const tag = await createTag();
    const res = await t.put(path(`/${tag._id}`), { token: p.agent.token, body: { tag: 'taken' } });
    expect(res.status).toBe(409);
    expect(res.body.field).toBe('tag');
  });

  it('answers 400 naming a bad color', async () => {
    const tag = await createTag();
    const res = await t.put(path(`/${tag._id}`), { token: p.agent.token, body: { color: '#12' } });
    expect(res.status).toBe(400);
    expect(res.body.field).toBe('color');
  });
});

describe('DELETE /tags/:id', () => {
  it('returns the deleted tag, which is then gone', async () => {
    const tag = await createTag();
    const res = await t.delete(path(`/${tag._id}`), { token: p.agent.token });
    expect(res.status).toBe(200);
    expect(res.body._id).toBe(tag._id);
    expect((await t.get(path(`/${tag._id}`), { token: p.agent.token })).status).toBe(404);
  });

  it('logs create, update and delete events', async () => {
    const tag = await createTag();
    await t.put(path(`/${tag._id}`), { token: p.agent.token, body: { color: '#abcdef' } });
    await t.delete(path(`/${tag._id}`), { token: p.agent.token });
    const events = await t.infra.database.prisma.domainEvent.findMany({ where: { subject: tag._id }, orderBy: { seq: 'asc' } });
    expect(events.map((e) => e.name)).toEqual(['tag.create', 'tag.update', 'tag.delete']);
  });
});

describe('roles', () => {
  it('lets an agent read and write', async () => {
    const tag = await createTag();
    expect((await t.get(path(), { token: p.agent.token })).status).toBe(200);
    expect((await t.put(path(`/${tag._id}`), { token: p.agent.token, body: { color: '#111' } })).status).toBe(200);
  });

  it('answers 403 to a user below agent', async () => {
    expect((await t.get(path(), { token: p.user.token })).status).toBe(403);
    expect((await t.post(path(), { token: p.user.token, body: { tag: 'no' } })).status).toBe(403);
    expect((await t.post(path(), { token: p.guest.token, body: { tag: 'no' } })).status).toBe(403);
  });

  it('answers 401 without credentials', async () => {
    expect((await t.get(path())).status).toBe(401);
  });
});

describe('tenancy', () => {
  it('answers 404 to another project owner naming their own project', async () => {
    const tag = await createTag();
    const url = `/v3/${other.projectId}/tags/${tag._id}`;
    expect((await t.get(url, { token: other.owner.token })).status).toBe(404);
    expect((await t.put(url, { token: other.owner.token, body: { color: '#000' } })).status).toBe(404);
    expect((await t.delete(url, { token: other.owner.token })).status).toBe(404);
  });

  it('answers 403 to another project owner naming this project', async () => {
    const tag = await createTag();
    expect((await t.get(path(`/${tag._id}`), { token: other.owner.token })).status).toBe(403);
  });
});

describe('GraphQL', () => {
  it('creates, lists, updates and deletes a tag', async () => {
    const token = p.agent.token;
    const vars = { project_id: p.projectId };
    const created = await t.gql(`mutation($project_id: String!) { createTag(project_id: $project_id, tag: "gql", color: "#abc") { _id tag color } }`, vars, token);
    const tag = created.body.data.createTag;
    expect(tag).toMatchObject({ tag: 'gql', color: '#abc' });

    const listed = await t.gql(
      `query($project_id: String!) { tags(project_id: $project_id, sortField: "tag", direction: 1, limit: 100) { _id } }`,
      vars,
      token,
    );
    expect(listed.body.data.tags.map((x: { _id: string }) => x._id)).toContain(tag._id);

    const read = await t.gql(`query($project_id: String!, $id: String!) { tag(project_id: $project_id, id: $id) { tag } }`, { ...vars, id: tag._id }, token);
    expect(read.body.data.tag.tag).toBe('gql');

    const updated = await t.gql(`mutation($project_id: String!, $id: String!) { updateTag(project_id: $project_id, id: $id, color: "#def") { color } }`, { ...vars, id: tag._id }, token);
    expect(updated.body.data.updateTag.color).toBe('#def');

    const deleted = await t.gql(`mutation($project_id: String!, $id: String!) { deleteTag(project_id: $project_id, id: $id) { _id } }`, { ...vars, id: tag._id }, token);
    expect(deleted.body.data.deleteTag._id).toBe(tag._id);
  });
});
