import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedTestApp, type SeededProject, type TestApp } from './helpers/app.js';

let t: TestApp;
let p: SeededProject;
let other: SeededProject;

beforeAll(async () => {
  t = await sharedTestApp();
  p = await t.seedProject('Canned');
  other = await t.seedProject('Elsewhere');
});
afterAll(() => t.close());

const path = (rest = '') => `/v3/${p.projectId}/canned${rest}`;

async function createCanned(body: Record<string, unknown> = {}) {
  const res = await t.post(path(), { token: p.agent.token, body: { title: 'Greeting', text: 'Hello!', ...body } });
  expect(res.status).toBe(200);
  return res.body;
}

let ticket = 0;
/** Requests are another module's; the row is written directly, with its lead. */
async function createRequest(projectId: string, fullname: string | null, email: string | null = null) {
  const db = t.infra.database.prisma;
  const lead = await db.lead.create({ data: { id_project: projectId, fullname, email, createdBy: 'test' } });
  return db.request.create({
    data: {
      id_project: projectId,
      request_id: `support-group-${crypto.randomUUID()}`,
      ticket_id: ++ticket,
      leadId: lead.id,
      createdBy: 'test',
    },
  });
}

describe('POST /canned', () => {
  it('creates a canned response with the standard fields', async () => {
    const res = await t.post(path(), { token: p.agent.token, body: { title: 'Bye', text: 'Goodbye $recipient_name', attributes: { lang: 'en' } } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      title: 'Bye',
      text: 'Goodbye $recipient_name',
      attributes: { lang: 'en' },
      status: 100,
      id_project: p.projectId,
      createdBy: p.agent.userId,
      __v: 0,
    });
    expect(res.body._id).toBe(res.body.id);
  });

  it('answers 400 naming a missing text', async () => {
    const res = await t.post(path(), { token: p.agent.token, body: { title: 'Empty' } });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'BAD_USER_INPUT', field: 'text' });
  });

  it('answers 400 naming a missing title', async () => {
    const res = await t.post(path(), { token: p.agent.token, body: { text: 'Hi' } });
    expect(res.status).toBe(400);
    expect(res.body.field).toBe('title');
  });

  it('answers 400 naming attributes that are not an object', async () => {
    const res = await t.post(path(), { token: p.agent.token, body: { title: 'A', text: 'B', attributes: 'x' } });
    expect(res.status).toBe(400);
    expect(res.body.field).toBe('attributes');
  });
});

describe('GET /canned', () => {
  let project: SeededProject;
  const titles = ['b', 'a', 'c'];
  beforeAll(async () => {
    project = await t.seedProject('Listing');
    for (const title of titles) await t.post(`/v3/${project.projectId}/canned`, { token: project.owner.token, body: { title, text: title } });
  });
  const list = (query = '') => t.get(`/v3/${project.projectId}/canned${query}`, { token: project.agent.token });

  it('lists newest first by default', async () => {
    const res = await list();
    expect(res.status).toBe(200);
    expect(res.body.map((c: { title: string }) => c.title)).toEqual([...titles].reverse());
  });

  it('sorts by sortField and direction', async () => {
    expect((await list('?sortField=title&direction=1')).body.map((c: { title: string }) => c.title)).toEqual(['a', 'b', 'c']);
    expect((await list('?sortField=createdAt&direction=1')).body.map((c: { title: string }) => c.title)).toEqual(titles);
  });

  it('pages with page (0 first) and limit', async () => {
    const second = await list('?sortField=title&direction=1&limit=2&page=1');
    expect(second.body.map((c: { title: string }) => c.title)).toEqual(['c']);
  });

  it('answers 400 naming an unknown sortField', async () => {
    const res = await list('?sortField=text');
    expect(res.status).toBe(400);
    expect(res.body.field).toBe('sortField');
  });

  it('returns one canned response by id', async () => {
    const canned = await createCanned();
    const res = await t.get(path(`/${canned._id}`), { token: p.agent.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(canned);
  });
});

describe('PUT and DELETE /canned/:id', () => {
  it('updates the fields given', async () => {
    const canned = await createCanned();
    const res = await t.put(path(`/${canned._id}`), { token: p.agent.token, body: { text: 'Hi there' } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ title: 'Greeting', text: 'Hi there', __v: 1 });
  });

  it('answers 400 for an empty text', async () => {
    const canned = await createCanned();
    const res = await t.put(path(`/${canned._id}`), { token: p.agent.token, body: { text: '' } });
    expect(res.status).toBe(400);
    expect(res.body.field).toBe('text');
  });

  it('deletes and returns the record', async () => {
    const canned = await createCanned();
    const res = await t.delete(path(`/${canned._id}`), { token: p.agent.token });
    expect(res.status).toBe(200);
    expect(res.body._id).toBe(canned._id);
    expect((await t.get(path(`/${canned._id}`), { token: p.agent.token })).status).toBe(404);
  });

  it('logs create, update and delete events', async () => {
    const canned = await createCanned();
    await t.put(path(`/${canned._id}`), { token: p.agent.token, body: { title: 'New' } });
    await t.delete(path(`/${canned._id}`), { token: p.agent.token });
    const events = await t.infra.database.prisma.domainEvent.findMany({ where: { subject: canned._id }, orderBy: { seq: 'asc' } });
    expect(events.map((e) => e.name)).toEqual(['canned.create', 'canned.update', 'canned.delete']);
  });
});

describe('GET /canned/:id/render', () => {
  it('replaces $recipient_name with the lead name and $agent_name with the caller name', async () => {
    const canned = await createCanned({ text: 'Hi $recipient_name, I am $agent_name. $recipient_name, how can I help?' });
    const request = await createRequest(p.projectId, 'Mario Rossi');
    const res = await t.get(path(`/${canned._id}/render?request_id=${request.request_id}`), { token: p.agent.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      _id: canned._id,
      id: canned._id,
      title: 'Greeting',
      request_id: request.request_id,
      text: 'Hi Mario Rossi, I am agent Test. Mario Rossi, how can I help?',
    });
  });

  it('uses the lead e-mail when the lead has no name', async () => {
    const canned = await createCanned({ text: 'Dear $recipient_name' });
    const request = await createRequest(p.projectId, null, 'anon@example.test');
    const res = await t.get(path(`/${canned._id}/render?request_id=${request.request_id}`), { token: p.owner.token });
    expect(res.body.text).toBe('Dear anon@example.test');
  });

  it('answers 404 for a request of another project', async () => {
    const canned = await createCanned();
    const foreign = await createRequest(other.projectId, 'Someone');
    const res = await t.get(path(`/${canned._id}/render?request_id=${foreign.request_id}`), { token: p.agent.token });
    expect(res.status).toBe(404);
  });

  it('answers 400 naming a missing request_id', async () => {
    const canned = await createCanned();
    const res = await t.get(path(`/${canned._id}/render`), { token: p.agent.token });
    expect(res.status).toBe(400);
    expect(res.body.field).toBe('request_id');
  });

  it('is available through GraphQL', async () => {
    const canned = await createCanned({ text: 'Ciao $recipient_name' });
    const request = await createRequest(p.projectId, 'Lucia');
    const res = await t.gql(
      `query($project_id: String!, $id: String!, $request_id: String) { renderCannedResponse(project_id: $project_id, id: $id, request_id: $request_id) { text } }`,
      { project_id: p.projectId, id: canned._id, request_id: request.request_id },
      p.agent.token,
    );
    expect(res.body.data.renderCannedResponse.text).toBe('Ciao Lucia');
  });
});

describe('roles', () => {
  it('answers 403 to a user below agent', async () => {
    const canned = await createCanned();
    expect((await t.get(path(), { token: p.user.token })).status).toBe(403);
    expect((await t.post(path(), { token: p.user.token, body: { title: 'a', text: 'b' } })).status).toBe(403);
    expect((await t.get(path(`/${canned._id}/render?request_id=x`), { token: p.guest.token })).status).toBe(403);
  });

  it('answers 401 without credentials', async () => {
    expect((await t.get(path())).status).toBe(401);
  });
});

describe('tenancy', () => {
  it('answers 404 to another project owner naming their own project', async () => {
    const canned = await createCanned();
    const url = `/v3/${other.projectId}/canned/${canned._id}`;
    expect((await t.get(url, { token: other.owner.token })).status).toBe(404);
    expect((await t.put(url, { token: other.owner.token, body: { text: 'Mine' } })).status).toBe(404);
    expect((await t.delete(url, { token: other.owner.token })).status).toBe(404);
  });

  it('answers 403 to another project owner naming this project', async () => {
    const canned = await createCanned();
    expect((await t.get(path(`/${canned._id}`), { token: other.owner.token })).status).toBe(403);
  });
});

describe('GraphQL', () => {
  it('creates, lists, updates and deletes a canned response', async () => {
    const token = p.agent.token;
    const vars = { project_id: p.projectId };
    const created = await t.gql(
      `mutation($project_id: String!) { createCannedResponse(project_id: $project_id, title: "T", text: "X") { _id title text } }`,
      vars,
      token,
    );
    const canned = created.body.data.createCannedResponse;
    expect(canned).toMatchObject({ title: 'T', text: 'X' });

    const listed = await t.gql(`query($project_id: String!) { cannedResponses(project_id: $project_id, limit: 100) { _id } }`, vars, token);
    expect(listed.body.data.cannedResponses.map((c: { _id: string }) => c._id)).toContain(canned._id);

    const updated = await t.gql(
      `mutation($project_id: String!, $id: String!) { updateCannedResponse(project_id: $project_id, id: $id, title: "T2") { title text } }`,
      { ...vars, id: canned._id },
      token,
    );
    expect(updated.body.data.updateCannedResponse).toEqual({ title: 'T2', text: 'X' });

    const deleted = await t.gql(
      `mutation($project_id: String!, $id: String!) { deleteCannedResponse(project_id: $project_id, id: $id) { _id } }`,
      { ...vars, id: canned._id },
      token,
    );
    expect(deleted.body.data.deleteCannedResponse._id).toBe(canned._id);
  });
});
