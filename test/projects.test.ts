import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedTestApp, type SeededProject, type TestApp } from './helpers/app.js';

let t: TestApp;
let p: SeededProject;
beforeAll(async () => {
  t = await sharedTestApp();
  p = await t.seedProject();
});
afterAll(() => t.close());

const allWeek = (start: string, end: string) =>
  Object.fromEntries(['0', '1', '2', '3', '4', '5', '6'].map((d) => [d, [{ start, end }]]));

describe('POST /v3/projects', () => {
  it('makes the caller the owner and creates the default department', async () => {
    const { token, user } = await t.newUser('creator');
    const res = await t.post('/v3/projects', { token, body: { name: 'Support' } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: 'Support', status: 100, createdBy: user._id, __v: 0 });
    const owner = await t.services.teammates.getByUser(res.body._id, user._id);
    expect(owner.role).toBe('owner');
    const departments = await t.infra.database.prisma.department.findMany({ where: { id_project: res.body._id } });
    expect(departments).toMatchObject([{ name: 'Default Department', routing: 'assigned', default: true }]);
  });

  it('answers 400 naming a missing name', async () => {
    const res = await t.post('/v3/projects', { token: p.owner.token, body: {} });
    expect(res.status).toBe(400);
    expect(res.body.field).toBe('name');
  });
});

describe('GET /v3/projects/', () => {
  it('lists the caller\'s memberships with the project nested', async () => {
    const res = await t.get('/v3/projects/', { token: p.agent.token });
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(1);
    expect(res.body[0]).toMatchObject({ role: 'agent', id_user: p.agent.userId, user_available: true });
    expect(res.body[0].id_project).toMatchObject({ _id: p.projectId, name: 'Acme' });
  });

  it('lists the memberships of a teammate with role user', async () => {
    const res = await t.get('/v3/projects/', { token: p.user.token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject([{ role: 'user', id_user: p.user.userId }]);
  });

  it('refuses an anonymous visitor\'s token with 403', async () => {
    const res = await t.get('/v3/projects/', { token: p.guest.token });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ success: false, code: 'FORBIDDEN' });
  });
});

describe('GET /v3/projects/:project_id', () => {
  it('returns the project with the spec\'s response fields', async () => {
    const res = await t.get(`/v3/projects/${p.projectId}`, { token: p.agent.token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      _id: p.projectId,
      id: p.projectId,
      name: 'Acme',
      activeOperatingHours: false,
      channels: [{ name: 'chat21' }],
      trialExpired: false,
      isActiveSubscription: true,
    });
    expect(typeof res.body.versions).toBe('number');
    expect(res.body.createdAt).toMatch(/^\d{4}-\d\d-\d\dT/);
  });

  it('refuses a user below agent with 403', async () => {
    expect((await t.get(`/v3/projects/${p.projectId}`, { token: p.user.token })).status).toBe(403);
  });
});

describe('PUT /v3/projects/:project_id', () => {
  it('updates name and settings and bumps the revision', async () => {
    const before = await t.get(`/v3/projects/${p.projectId}`, { token: p.admin.token });
    const res = await t.put(`/v3/projects/${p.projectId}`, {
      token: p.admin.token,
      body: { name: 'Acme Support', settings: { email: { autoSendTranscriptToRequester: true } } },
    });
    expect(res.status).toBe(200);
    expect(res.body.name).toBe('Acme Support');
    expect(res.body.settings).toEqual({ email: { autoSendTranscriptToRequester: true } });
    expect(res.body.__v).toBe(before.body.__v + 1);
  });

  it('returns operating hours as a JSON-encoded string', async () => {
    const hours = { tzname: 'Europe/Rome', ...allWeek('09:00', '18:00') };
    const res = await t.put(`/v3/projects/${p.projectId}`, { token: p.admin.token, body: { operatingHours: hours } });
    expect(res.status).toBe(200);
    expect(typeof res.body.operatingHours).toBe('string');
    expect(JSON.parse(res.body.operatingHours)).toEqual(hours);
  });

  it('accepts operating hours sent as a JSON string', async () => {
    const hours = { tzname: 'UTC', 1: [{ start: '08:00', end: '12:00' }] };
    const res = await t.put(`/v3/projects/${p.projectId}`, {
      token: p.admin.token,
      body: { operatingHours: JSON.stringify(hours) },
    });
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body.operatingHours)).toEqual(hours);
  });

  it.each([
    ['a bad time', { tzname: 'UTC', 1: [{ start: '8am', end: '12:00' }] }],
    ['an unknown weekday', { tzname: 'UTC', 7: [{ start: '08:00', end: '12:00' }] }],
    ['an unknown time zone', { tzname: 'Mars/Olympus', 1: [{ start: '08:00', end: '12:00' }] }],
    ['an end before the start', { tzname: 'UTC', 1: [{ start: '12:00', end: '08:00' }] }],
  ])('answers 400 for operating hours with %s', async (_label, hours) => {
    const res = await t.put(`/v3/projects/${p.projectId}`, { token: p.admin.token, body: { operatingHours: hours } });
    expect(res.status).toBe(400);
    expect(res.body.field).toBe('operatingHours');
  });

  it('refuses an agent with 403', async () => {
    const res = await t.put(`/v3/projects/${p.projectId}`, { token: p.agent.token, body: { name: 'x' } });
    expect(res.status).toBe(403);
  });
});

describe('GET /v3/projects/:project_id/isopen', () => {
  it('answers without credentials', async () => {
    const { token } = await t.newUser('public');
    const project = await t.post('/v3/projects', { token, body: { name: 'Public' } });
    const res = await t.get(`/v3/projects/${project.body._id}/isopen`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ isopen: true });
  });

  it('answers 404 for an unknown project', async () => {
    const res = await t.get('/v3/projects/no-such-project/isopen');
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('NOT_FOUND');
  });

  it('is open when operating hours are not active', async () => {
    const { token } = await t.newUser('hours');
    const project = await t.post('/v3/projects', { token, body: { name: 'Hours' } });
    const res = await t.get(`/v3/projects/${project.body._id}/isopen`, { token });
    expect(res.body).toEqual({ isopen: true });
  });

  it('is closed outside active operating hours, in the project\'s time zone', async () => {
    const { token } = await t.newUser('closed');
    const project = await t.post('/v3/projects', { token, body: { name: 'Closed' } });
    // A slot of one minute that ended a minute ago in the project's zone cannot contain now.
    const now = new Date();
    const zone = 'Asia/Tokyo';
    const hhmm = (d: Date) =>
      new Intl.DateTimeFormat('en-GB', { timeZone: zone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(d);
    const start = hhmm(new Date(now.getTime() - 3 * 60_000));
    const end = hhmm(new Date(now.getTime() - 2 * 60_000));
    const hours = start < end ? { tzname: zone, ...allWeek(start, end) } : { tzname: zone };
    await t.put(`/v3/projects/${project.body._id}`, { token, body: { activeOperatingHours: true, operatingHours: hours } });
    expect((await t.get(`/v3/projects/${project.body._id}/isopen`, { token })).body).toEqual({ isopen: false });
  });

  it('is open inside active operating hours', async () => {
    const { token } = await t.newUser('open');
    const project = await t.post('/v3/projects', { token, body: { name: 'Open' } });
    const hours = { tzname: 'Pacific/Auckland', ...allWeek('00:00', '23:59') };
    await t.put(`/v3/projects/${project.body._id}`, { token, body: { activeOperatingHours: true, operatingHours: hours } });
    const res = await t.get(`/v3/projects/${project.body._id}/isopen`, { token });
    const minute = new Intl.DateTimeFormat('en-GB', { timeZone: 'Pacific/Auckland', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(new Date());
    expect(res.body).toEqual({ isopen: minute < '23:59' });
  });
});

describe('GET /v3/projects/:project_id/users/availables', () => {
  it('lists available agents and above as {id, firstname}', async () => {
    const res = await t.get(`/v3/projects/${p.projectId}/users/availables`, { token: p.user.token });
    expect(res.status).toBe(200);
    const ids = res.body.map((a: { id: string }) => a.id);
    expect(ids).toEqual(expect.arrayContaining([p.owner.userId, p.admin.userId, p.agent.userId]));
    expect(ids).not.toContain(p.user.userId);
    expect(res.body.find((a: { id: string }) => a.id === p.agent.userId)).toMatchObject({ firstname: 'agent' });
  });

  it('leaves out teammates who are unavailable or at their max_served_chat', async () => {
    const q = await t.seedProject('Capacity');
    await t.put(`/v3/${q.projectId}/project_users`, { token: q.agent.token, body: { user_available: false } });
    await t.put(`/v3/${q.projectId}/project_users/${q.admin.teammateId}`, { token: q.owner.token, body: { max_served_chat: 0 } });
    const res = await t.get(`/v3/projects/${q.projectId}/users/availables`, { token: q.owner.token });
    expect(res.body.map((a: { id: string }) => a.id)).toEqual([q.owner.userId]);
  });

  it('is empty outside operating hours unless raw=true', async () => {
    const q = await t.seedProject('Raw');
    await t.put(`/v3/projects/${q.projectId}`, {
      token: q.owner.token,
      body: { activeOperatingHours: true, operatingHours: { tzname: 'UTC' } },
    });
    expect((await t.get(`/v3/projects/${q.projectId}/users/availables`, { token: q.owner.token })).body).toEqual([]);
    const raw = await t.get(`/v3/projects/${q.projectId}/users/availables?raw=true`, { token: q.owner.token });
    expect(raw.body.length).toBe(3);
  });

  it('refuses a guest with 403', async () => {
    expect((await t.get(`/v3/projects/${p.projectId}/users/availables`, { token: p.guest.token })).status).toBe(403);
  });
});

describe('widget settings', () => {
  const widget = {
    logoChat: 'https://example.test/logo.png',
    themeColor: '#2a6ac1',
    themeForegroundColor: '#ffffff',
    themeColorOpacity: 1,
    align: 'right',
    displayOnDesktop: true,
    displayOnMobile: false,
    onPageChangeVisibilityDesktop: 'open',
    onPageChangeVisibilityMobile: 'last',
    singleConversation: true,
    baloonImage: 'https://example.test/baloon.png',
    poweredBy: '<a href="https://example.test">Powered by us</a>',
  };

  it('PUT /v3/projects/:project_id/availables echoes the widget', async () => {
    const res = await t.put(`/v3/projects/${p.projectId}/availables`, { token: p.user.token, body: { widget } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ widget });
  });

  it('answers 400 naming a widget color that is not hex', async () => {
    const res = await t.put(`/v3/projects/${p.projectId}/availables`, {
      token: p.user.token,
      body: { widget: { themeColor: 'blue' } },
    });
    expect(res.status).toBe(400);
    expect(res.body.field).toBe('widget.themeColor');
  });

  it('GET /v3/:project_id/widgets returns the widget without credentials', async () => {
    await t.put(`/v3/projects/${p.projectId}/availables`, { token: p.user.token, body: { widget } });
    const res = await t.get(`/v3/${p.projectId}/widgets`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id_project: p.projectId, widget, isopen: true });
    expect(res.body.available_agents).toBeGreaterThan(0);
  });

  it('GET /v3/:project_id/widgets answers 404 for an unknown project', async () => {
    expect((await t.get('/v3/nope/widgets')).status).toBe(404);
  });
});

describe('GraphQL', () => {
  it('reads the same project as REST', async () => {
    const res = await t.gql(
      'query($id: String!) { project(project_id: $id) { _id name revision operatingHours } }',
      { id: p.projectId },
      p.agent.token,
    );
    expect(res.body.errors).toBeUndefined();
    const rest = await t.get(`/v3/projects/${p.projectId}`, { token: p.agent.token });
    expect(res.body.data.project).toEqual({
      _id: rest.body._id,
      name: rest.body.name,
      revision: rest.body.__v,
      operatingHours: rest.body.operatingHours,
    });
  });

  it('creates a project through a mutation', async () => {
    const { token } = await t.newUser('gqlcreator');
    const res = await t.gql('mutation { createProject(name: "From GraphQL") { _id name } }', {}, token);
    expect(res.body.data.createProject.name).toBe('From GraphQL');
  });

  it('refuses projects to an anonymous visitor as FORBIDDEN', async () => {
    const res = await t.gql('{ projects { role } }', {}, p.guest.token);
    expect(res.body.errors![0].extensions!.code).toBe('FORBIDDEN');
  });

  it('answers projectIsOpen without credentials', async () => {
    const res = await t.gql('query($id: String!) { projectIsOpen(project_id: $id) { isopen } }', { id: p.projectId });
    expect(res.body.errors).toBeUndefined();
    expect(typeof res.body.data.projectIsOpen.isopen).toBe('boolean');
  });

  it('reports a role too low as FORBIDDEN', async () => {
    const res = await t.gql('query($id: String!) { project(project_id: $id) { _id } }', { id: p.projectId }, p.user.token);
    expect(res.body.errors![0].extensions!.code).toBe('FORBIDDEN');
  });
});
