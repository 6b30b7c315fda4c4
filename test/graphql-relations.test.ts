import { buildSchema, getNamedType, isObjectType, isScalarType, type GraphQLObjectType } from 'graphql';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { createInfrastructure } from '../src/infra/index.js';
import { registerJobs } from '../workers/jobs.js';
import { serveTestApp, testEnvironment, type SeededProject, type TestApp } from './helpers/app.js';
import { onlyAvailable, openRequest } from './helpers/conversations.js';
import { currentRequestId } from '../src/infra/request-scope.js';

// Relations a rich client selects into are GraphQL object types, loaded in batches, never across
// projects; REST keeps its wire shape (the REST tests check that).

let t: TestApp;
/**
 * Database statements the app ran (model operations and raw queries) while serving a request with
 * the x-request-id `probe`: background work (sweeps, cursors, dispatchers) shares the client.
 */
let statements = 0;
const probe = 'batching-probe';

beforeAll(async () => {
  const environment = await testEnvironment();
  const infra = await createInfrastructure(environment.config, { inMemory: true });
  const counted = infra.database.prisma.$extends({
    query: {
      $allOperations({ args, query }) {
        if (currentRequestId() === probe) statements++;
        return query(args);
      },
    },
  });
  infra.database.prisma = counted as unknown as typeof infra.database.prisma;
  const app = buildApp(infra);
  registerJobs(infra.queue, app.services);
  await infra.queue.startWorkers();
  t = await serveTestApp(app, async () => {
    await infra.close();
    await environment.dispose();
  });
});
afterAll(() => t.close());

const requestQuery = `query ($p: String!, $r: String!) {
  request(project_id: $p, request_id: $r) {
    department { id name default }
    department_id
    lead { id fullname email }
    requester { id role id_user { _id firstname } presence { status } }
    agents { id role id_user { _id email } }
    notes { _id text createdBy createdAt }
  }
}`;

describe('a request\'s relations', () => {
  let p: SeededProject;
  let requestId: string;
  beforeAll(async () => {
    p = await t.seedProject();
    await onlyAvailable(t, p, [p.agent]);
    requestId = await openRequest(t, p, { text: 'hello' });
    await t.post(`/v3/${p.projectId}/requests/${requestId}/notes`, { token: p.admin.token, body: { text: 'VIP' } });
  });

  it('answers the department, lead, requester, agents and notes as typed records', async () => {
    const res = await t.gql(requestQuery, { p: p.projectId, r: requestId }, p.admin.token);
    expect(res.body.errors).toBeUndefined();
    const request = res.body.data.request;
    expect(request.department).toMatchObject({ name: 'Default Department', default: true });
    expect(request.department_id).toBe(request.department.id);
    expect(request.lead).toMatchObject({ fullname: 'Visitor' });
    expect(request.requester).toMatchObject({ id: p.guest.teammateId, role: 'guest', id_user: { _id: p.guest.userId }, presence: { status: 'offline' } });
    expect(request.agents).toEqual([{ id: p.agent.teammateId, role: 'agent', id_user: { _id: p.agent.userId, email: p.agent.email } }]);
    expect(request.notes).toEqual([{ _id: expect.any(String), text: 'VIP', createdBy: p.admin.userId, createdAt: expect.any(String) }]);
  });

  it('shows an end user no notes', async () => {
    const res = await t.gql(requestQuery, { p: p.projectId, r: requestId }, p.guest.token);
    expect(res.body.data.request.notes).toEqual([]);
  });

  it('answers a message\'s request as a typed record', async () => {
    const res = await t.gql(
      `query ($p: String!, $r: String!) { messages(project_id: $p, request_id: $r) { text request { request_id department { name } requester { role } } } }`,
      { p: p.projectId, r: requestId },
      p.admin.token,
    );
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.messages[0].request).toEqual({ request_id: requestId, department: { name: 'Default Department' }, requester: { role: 'guest' } });
  });

  it('answers a teammate\'s user and presence, and a membership\'s project with its channels', async () => {
    const teammates = await t.gql(`query ($p: String!) { teammates(project_id: $p) { id id_user { email } presence { status } } }`, { p: p.projectId }, p.admin.token);
    expect(teammates.body.data.teammates).toContainEqual({ id: p.agent.teammateId, id_user: { email: p.agent.email }, presence: { status: 'offline' } });
    const projects = await t.gql(`{ projects { id_project { id channels { name } } } }`, {}, p.owner.token);
    expect(projects.body.data.projects).toEqual([{ id_project: { id: p.projectId, channels: [{ name: 'chat21' }] } }]);
  });

  it('still shows REST list pages the department by its identifier, and single requests the record', async () => {
    const one = await t.get(`/v3/${p.projectId}/requests/${requestId}`, { token: p.admin.token });
    const page = await t.get(`/v3/${p.projectId}/requests`, { token: p.admin.token });
    expect(one.body.department).toMatchObject({ _id: expect.any(String), name: 'Default Department', __v: 0 });
    expect(one.body).not.toHaveProperty('department_id');
    expect(page.body.requests.find((r: { request_id: string }) => r.request_id === requestId).department).toBe(one.body.department._id);
  });
});

describe('batching', () => {
  it('loads a page of 100 requests with their department, lead, requester and agents in a bounded number of statements', async () => {
    const p = await t.seedProject('Busy');
    for (let i = 0; i < 100; i += 10) {
      await Promise.all(Array.from({ length: 10 }, () => t.post(`/v3/${p.projectId}/requests`, { token: p.guest.token, body: { first_text: 'hi' } })));
    }
    const query = `query ($p: String!) { requests(project_id: $p, limit: 100) { requests {
      department { name } lead { fullname } requester { role id_user { firstname } } agents { role id_user { email } }
    } } }`;
    await t.gql(query, { p: p.projectId }, p.admin.token); // warms the caller's caches (principal, membership)
    const before = statements;
    const res = await t.request('POST', '/graphql', {
      token: p.admin.token,
      headers: { 'x-request-id': probe },
      body: { query, variables: { p: p.projectId } },
    });
    const used = statements - before;
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.requests.requests).toHaveLength(100);
    expect(res.body.data.requests.requests.every((r: { department: unknown; requester: unknown }) => r.department && r.requester)).toBe(true);
    expect(used).toBeGreaterThan(0); // the probe saw the request's statements
    expect(used).toBeLessThanOrEqual(8);
  });
});

describe('tenancy', () => {
  it('never shows another project\'s department, lead or requester, whatever the request row points to', async () => {
    const [a, b] = [await t.seedProject('A'), await t.seedProject('B')];
    const requestId = await openRequest(t, a);
    const other = await t.post(`/v3/${b.projectId}/leads`, { token: b.admin.token, body: { fullname: 'Theirs' } });
    const theirDepartment = (await t.get(`/v3/${b.projectId}/departments`, { token: b.admin.token })).body[0]._id;
    // A row pointing across projects (no service writes one): the relation stays empty.
    await t.services.infra.database.prisma.request.updateMany({
      where: { id_project: a.projectId, request_id: requestId },
      data: { leadId: other.body._id, departmentId: theirDepartment, requester_id: b.guest.teammateId },
    });
    const res = await t.gql(requestQuery, { p: a.projectId, r: requestId }, a.admin.token);
    expect(res.body.data.request).toMatchObject({ department: null, lead: null, requester: null });
  });
});

describe('the SDL', () => {
  const sdl = buildSchema(readFileSync(new URL('../schema/schema.graphql', import.meta.url), 'utf8'));
  const typeOf = (type: string, field: string) => getNamedType((sdl.getType(type) as GraphQLObjectType).getFields()[field].type);

  it.each([
    ['Request', 'department'],
    ['Request', 'lead'],
    ['Request', 'requester'],
    ['Request', 'agents'],
    ['Request', 'notes'],
    ['Message', 'request'],
    ['Teammate', 'id_user'],
    ['Teammate', 'presence'],
    ['Teammate', 'tags'],
    ['ProjectMembership', 'id_project'],
    ['Project', 'channels'],
  ])('types %s.%s as an object type', (type, field) => {
    expect(isObjectType(typeOf(type, field))).toBe(true);
    expect(isScalarType(typeOf(type, field))).toBe(false);
  });
});
