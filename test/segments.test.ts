import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedTestApp, type SeededProject, type TestApp } from './helpers/app.js';

let t: TestApp;
let p: SeededProject;
let other: SeededProject;

const people = [
  {
    fullname: 'Ada',
    email: 'ada@acme.test',
    company: 'Acme',
    city: 'Rome',
    tags: ['vip'],
    attributes: { plan: 'pro', age: 34, nested: { level: 3 }, active: true },
  },
  { fullname: 'Bob', email: 'bob@globex.test', company: 'Globex', tags: [], attributes: { plan: 'free', age: 19 } },
  { fullname: 'Cy', company: 'Acme Labs', city: 'Milan', tags: ['eu', 'vip'], attributes: { plan: null, age: '41' } },
];

beforeAll(async () => {
  t = await sharedTestApp();
  p = await t.seedProject('Segments');
  other = await t.seedProject('Elsewhere');
  for (const body of people) await t.post(`/v3/${p.projectId}/leads`, { token: p.agent.token, body });
});
afterAll(() => t.close());

const path = (rest = '') => `/v3/${p.projectId}/segments${rest}`;

interface Filter {
  field: string;
  operator: string;
  value?: unknown;
}

async function createSegment(filters: Filter[], match = 'all') {
  const res = await t.post(path(), { token: p.agent.token, body: { name: 'Segment', match, filters } });
  expect(res.status).toBe(200);
  return res.body;
}

/** Names of the leads a segment matches, through GET /leads?segment=. */
async function matched(filters: Filter[], match = 'all') {
  const segment = await createSegment(filters, match);
  const res = await t.get(`/v3/${p.projectId}/leads?segment=${segment._id}&sortField=fullname&direction=1`, { token: p.agent.token });
  expect(res.status).toBe(200);
  return res.body.leads.map((l: { fullname: string }) => l.fullname);
}

describe('POST /segments', () => {
  it('answers the segment record without its leads', async () => {
    const filters = [{ field: 'attributes.plan', operator: '=', value: 'pro' }];
    const res = await t.post(path(), { token: p.agent.token, body: { name: 'Pro', match: 'any', filters } });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(
      ['_id', 'id', 'name', 'match', 'filters', 'createdAt', 'updatedAt', '__v', 'createdBy', 'id_project'].sort(),
    );
    expect(res.body).toMatchObject({ name: 'Pro', match: 'any', filters, createdBy: p.agent.userId, id_project: p.projectId, __v: 0 });
  });

  it('defaults to match all and no filters, which selects every lead', async () => {
    const res = await t.post(path(), { token: p.agent.token, body: { name: 'Everyone' } });
    expect(res.body).toMatchObject({ match: 'all', filters: [] });
    const leads = await t.get(`/v3/${p.projectId}/leads?segment=${res.body._id}`, { token: p.agent.token });
    expect(leads.body.count).toBe(3);
  });

  const invalid: Array<[string, Record<string, unknown>, string]> = [
    ['a missing name', { filters: [] }, 'name'],
    ['an unknown match', { name: 'S', match: 'some' }, 'match'],
    ['an unknown field', { name: 'S', filters: [{ field: 'password', operator: '=', value: 'x' }] }, 'filters.0.field'],
    ['a name every object inherits', { name: 'S', filters: [{ field: 'constructor', operator: '=', value: 'x' }] }, 'filters.0.field'],
    ['a malformed attribute path', { name: 'S', filters: [{ field: 'attributes.a b', operator: '=', value: 'x' }] }, 'filters.0.field'],
    ['an unknown operator', { name: 'S', filters: [{ field: 'email', operator: 'like', value: 'x' }] }, 'filters.0.operator'],
    ['an operator that does not fit the field', { name: 'S', filters: [{ field: 'tags', operator: '>', value: 'x' }] }, 'filters.0.operator'],
    ['"in" without a list', { name: 'S', filters: [{ field: 'city', operator: 'in', value: 'Rome' }] }, 'filters.0.value'],
    ['a comparison without a value', { name: 'S', filters: [{ field: 'city', operator: '=' }] }, 'filters.0.value'],
    ['a date that is not one', { name: 'S', filters: [{ field: 'createdAt', operator: '>', value: 'yesterday' }] }, 'filters.0.value'],
  ];
  for (const [what, body, field] of invalid) {
    it(`answers 400 naming ${field} for ${what}`, async () => {
      const res = await t.post(path(), { token: p.agent.token, body });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'BAD_USER_INPUT', field });
    });
  }
});

describe('operators', () => {
  const cases: Array<[string, Filter, string[]]> = [
    ['=', { field: 'fullname', operator: '=', value: 'Ada' }, ['Ada']],
    ['!= (leads without the field included)', { field: 'city', operator: '!=', value: 'Rome' }, ['Bob', 'Cy']],
    ['> on a numeric attribute', { field: 'attributes.age', operator: '>', value: 20 }, ['Ada', 'Cy']],
    ['>= on a numeric attribute', { field: 'attributes.age', operator: '>=', value: 34 }, ['Ada', 'Cy']],
    ['< on a numeric attribute', { field: 'attributes.age', operator: '<', value: 34 }, ['Bob']],
    ['<= with a numeric string', { field: 'attributes.age', operator: '<=', value: '19' }, ['Bob']],
    ['contains, any case', { field: 'company', operator: 'contains', value: 'ACME' }, ['Ada', 'Cy']],
    ['starts with, any case', { field: 'email', operator: 'starts with', value: 'BOB' }, ['Bob']],
    ['is null on a column', { field: 'city', operator: 'is null' }, ['Bob']],
    ['is null on an attribute absent or null', { field: 'attributes.nested.level', operator: 'is null' }, ['Bob', 'Cy']],
    ['is not null', { field: 'email', operator: 'is not null' }, ['Ada', 'Bob']],
    ['in on an attribute', { field: 'attributes.plan', operator: 'in', value: ['pro', 'free'] }, ['Ada', 'Bob']],
    ['in on tags (any of them)', { field: 'tags', operator: 'in', value: ['eu', 'none'] }, ['Cy']],
    ['= on tags (has the tag)', { field: 'tags', operator: '=', value: 'vip' }, ['Ada', 'Cy']],
    ['!= on tags', { field: 'tags', operator: '!=', value: 'vip' }, ['Bob']],
    ['= on a nested attribute number', { field: 'attributes.nested.level', operator: '=', value: 3 }, ['Ada']],
    ['= on a boolean attribute', { field: 'attributes.active', operator: '=', value: true }, ['Ada']],
    ['> on a date', { field: 'createdAt', operator: '>', value: '2000-01-01' }, ['Ada', 'Bob', 'Cy']],
    ['< on a date', { field: 'createdAt', operator: '<', value: '2000-01-01T00:00:00Z' }, []],
    ['a value with SQL in it, taken literally', { field: 'fullname', operator: '=', value: "x' OR '1'='1" }, []],
    ['contains with % taken literally', { field: 'company', operator: 'contains', value: '%' }, []],
  ];
  for (const [what, filter, expected] of cases) {
    it(`matches ${what}`, async () => {
      expect(await matched([filter])).toEqual(expected);
    });
  }
});

describe('match', () => {
  it('all requires every filter', async () => {
    const filters = [
      { field: 'company', operator: 'contains', value: 'acme' },
      { field: 'tags', operator: '=', value: 'vip' },
      { field: 'city', operator: '=', value: 'Rome' },
    ];
    expect(await matched(filters, 'all')).toEqual(['Ada']);
  });

  it('any requires one filter', async () => {
    const filters = [
      { field: 'fullname', operator: '=', value: 'Bob' },
      { field: 'city', operator: '=', value: 'Milan' },
    ];
    expect(await matched(filters, 'any')).toEqual(['Bob', 'Cy']);
  });

  it('counts every match on a page past the last one', async () => {
    const segment = await createSegment([{ field: 'tags', operator: '=', value: 'vip' }]);
    const res = await t.get(`/v3/${p.projectId}/leads?segment=${segment._id}&page=3&limit=1`, { token: p.agent.token });
    expect(res.body).toMatchObject({ perPage: 1, count: 2, leads: [] });
  });

  it('combines with the other lead list filters', async () => {
    const segment = await createSegment([{ field: 'company', operator: 'contains', value: 'acme' }]);
    const res = await t.get(`/v3/${p.projectId}/leads?segment=${segment._id}&tags=eu`, { token: p.agent.token });
    expect(res.body.leads.map((l: { fullname: string }) => l.fullname)).toEqual(['Cy']);
  });
});

describe('many leads', () => {
  // Thirty leads, the even ones on plan pro: twenty lists of one lead are enough for a segment's
  // first pages to be found by walking the sort index once its count is known.
  let q: SeededProject;
  beforeAll(async () => {
    q = await t.seedProject('Many leads');
    await t.infra.database.prisma.lead.createMany({
      data: Array.from({ length: 30 }, (_, i) => ({
        id_project: q.projectId,
        fullname: `Lead ${String(i).padStart(2, '0')}`,
        company: ['Acme', 'Globex', null][i % 3],
        attributes: { plan: i % 2 ? 'free' : 'pro', visits: i * 10 },
        createdBy: q.agent.userId,
        createdAt: new Date(Date.UTC(2024, 0, 1 + (i * 7) % 30)),
      })),
    });
  });
  const createIn = async (filters: Filter[]) =>
    (await t.post(`/v3/${q.projectId}/segments`, { token: q.agent.token, body: { name: 'Pros', filters } })).body;
  const list = async (segmentId: string, query: string) => {
    const res = await t.get(`/v3/${q.projectId}/leads?segment=${segmentId}&${query}`, { token: q.agent.token });
    expect(res.status).toBe(200);
    return res.body as { count: number; leads: Array<{ _id: string; fullname: string }> };
  };
  const pros = [{ field: 'attributes.plan', operator: '=', value: 'pro' }];

  for (const sort of ['sortField=fullname&direction=1', 'sortField=company&direction=-1', 'sortField=createdAt&direction=1', 'sortField=email&direction=1']) {
    it(`pages one lead at a time in the order of the whole list (${sort})`, async () => {
      const segment = await createIn(pros);
      const whole = await list(segment._id, `${sort}&limit=100`);
      expect(whole.count).toBe(15);
      const paged = [];
      for (let page = 0; page < 16; page++) {
        const one = await list(segment._id, `${sort}&limit=1&page=${page}`);
        expect(one.count).toBe(15);
        paged.push(...one.leads.map((l) => l.fullname));
      }
      expect(paged).toEqual(whole.leads.map((l) => l.fullname));
    });
  }

  it('counts a lead right after it is updated into the segment', async () => {
    const segment = await createIn([...pros, { field: 'attributes.visits', operator: '>=', value: 100 }]);
    expect((await list(segment._id, 'sortField=fullname&direction=1&limit=1')).count).toBe(10);
    const [lead] = (await t.get(`/v3/${q.projectId}/leads?full_text=lead%2001`, { token: q.agent.token })).body.leads;
    await t.put(`/v3/${q.projectId}/leads/${lead._id}`, { token: q.agent.token, body: { attributes: { plan: 'pro', visits: 500 } } });
    const after = await list(segment._id, 'sortField=fullname&direction=1&limit=1');
    expect(after).toMatchObject({ count: 11, leads: [{ fullname: 'Lead 01' }] });
    await t.put(`/v3/${q.projectId}/leads/${lead._id}`, { token: q.agent.token, body: { attributes: { plan: 'free', visits: 10 } } });
    expect((await list(segment._id, 'sortField=fullname&direction=1&limit=1')).count).toBe(10);
  });

  it('counts a lead right after it is created or deleted', async () => {
    const segment = await createIn(pros);
    expect((await list(segment._id, 'sortField=fullname&direction=1&limit=1')).count).toBe(15);
    const created = await t.post(`/v3/${q.projectId}/leads`, { token: q.agent.token, body: { fullname: 'Lead 99', attributes: { plan: 'pro' } } });
    expect((await list(segment._id, 'sortField=fullname&direction=1&limit=1')).count).toBe(16);
    await t.delete(`/v3/${q.projectId}/leads/${created.body._id}`, { token: q.agent.token });
    expect((await list(segment._id, 'sortField=fullname&direction=1&limit=1')).count).toBe(15);
  });

  it('counts what the filters select right after the segment is edited', async () => {
    const segment = await createIn(pros);
    expect((await list(segment._id, 'sortField=fullname&direction=1&limit=1')).count).toBe(15);
    const filters = [{ field: 'attributes.visits', operator: '<', value: 50 }];
    await t.put(`/v3/${q.projectId}/segments/${segment._id}`, { token: q.agent.token, body: { filters } });
    expect(await list(segment._id, 'sortField=fullname&direction=1&limit=1')).toMatchObject({ count: 5, leads: [{ fullname: 'Lead 00' }] });
  });
});

describe('GET, PUT and DELETE /segments', () => {
  it('lists segments and returns one by id', async () => {
    const segment = await createSegment([{ field: 'city', operator: 'is null' }]);
    const list = await t.get(path(), { token: p.agent.token });
    expect(list.status).toBe(200);
    expect(list.body.map((s: { _id: string }) => s._id)).toContain(segment._id);
    const one = await t.get(path(`/${segment._id}`), { token: p.agent.token });
    expect(one.body).toEqual(segment);
  });

  it('PUT changes the fields given and replaces the filters', async () => {
    const segment = await createSegment([{ field: 'city', operator: 'is null' }]);
    const filters = [{ field: 'tags', operator: '=', value: 'eu' }];
    const res = await t.put(path(`/${segment._id}`), { token: p.agent.token, body: { match: 'any', filters } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: 'Segment', match: 'any', filters, __v: 1 });
  });

  it('PUT validates the filters', async () => {
    const segment = await createSegment([]);
    const res = await t.put(path(`/${segment._id}`), { token: p.agent.token, body: { filters: [{ field: 'x', operator: '=' }] } });
    expect(res.status).toBe(400);
    expect(res.body.field).toBe('filters.0.field');
  });

  it('DELETE returns the segment, which is then gone', async () => {
    const segment = await createSegment([]);
    const res = await t.delete(path(`/${segment._id}`), { token: p.agent.token });
    expect(res.status).toBe(200);
    expect(res.body._id).toBe(segment._id);
    expect((await t.get(path(`/${segment._id}`), { token: p.agent.token })).status).toBe(404);
  });

  it('logs create, update and delete events', async () => {
    const segment = await createSegment([]);
    await t.put(path(`/${segment._id}`), { token: p.agent.token, body: { name: 'Renamed' } });
    await t.delete(path(`/${segment._id}`), { token: p.agent.token });
    const events = await t.infra.database.prisma.domainEvent.findMany({ where: { subject: segment._id }, orderBy: { seq: 'asc' } });
    expect(events.map((e) => e.name)).toEqual(['segment.create', 'segment.update', 'segment.delete']);
  });
});

describe('roles', () => {
  it('answers 403 to a user below agent', async () => {
    expect((await t.get(path(), { token: p.user.token })).status).toBe(403);
    expect((await t.post(path(), { token: p.guest.token, body: { name: 'No' } })).status).toBe(403);
  });

  it('answers 401 without credentials', async () => {
    expect((await t.get(path())).status).toBe(401);
  });
});

describe('tenancy', () => {
  it('answers 404 to another project owner naming their own project', async () => {
    const segment = await createSegment([]);
    const url = `/v3/${other.projectId}/segments/${segment._id}`;
    expect((await t.get(url, { token: other.owner.token })).status).toBe(404);
    expect((await t.put(url, { token: other.owner.token, body: { name: 'Mine' } })).status).toBe(404);
    expect((await t.delete(url, { token: other.owner.token })).status).toBe(404);
    expect((await t.get(`/v3/${other.projectId}/leads?segment=${segment._id}`, { token: other.owner.token })).status).toBe(404);
  });

  it('answers 403 to another project owner naming this project', async () => {
    const segment = await createSegment([]);
    expect((await t.get(path(`/${segment._id}`), { token: other.owner.token })).status).toBe(403);
  });
});

describe('GraphQL', () => {
  it('pages through segment.leads', async () => {
    const segment = await createSegment([{ field: 'company', operator: 'contains', value: 'acme' }]);
    const res = await t.gql(
      `query($project_id: String!, $id: String!) {
        segment(project_id: $project_id, id: $id) { name leads(sortField: "fullname", direction: 1, page: 1, limit: 1) { perPage count leads { fullname } } }
      }`,
      { project_id: p.projectId, id: segment._id },
      p.agent.token,
    );
    expect(res.body.data.segment.leads).toEqual({ perPage: 1, count: 2, leads: [{ fullname: 'Cy' }] });
  });

  it('creates, updates and deletes a segment with typed filters', async () => {
    const token = p.agent.token;
    const vars = { project_id: p.projectId };
    const created = await t.gql(
      `mutation($project_id: String!) { createSegment(project_id: $project_id, name: "G", match: "any", filters: [{ field: "attributes.plan", operator: "=", value: "pro" }]) { _id match filters { field operator value } leads { count } } }`,
      vars,
      token,
    );
    const segment = created.body.data.createSegment;
    expect(segment).toMatchObject({ match: 'any', filters: [{ field: 'attributes.plan', operator: '=', value: 'pro' }], leads: { count: 1 } });

    const updated = await t.gql(
      `mutation($project_id: String!, $id: String!) { updateSegment(project_id: $project_id, id: $id, name: "H") { name } }`,
      { ...vars, id: segment._id },
      token,
    );
    expect(updated.body.data.updateSegment.name).toBe('H');

    const listed = await t.gql(`query($project_id: String!) { segments(project_id: $project_id) { _id } }`, vars, token);
    expect(listed.body.data.segments.map((s: { _id: string }) => s._id)).toContain(segment._id);

    const deleted = await t.gql(`mutation($project_id: String!, $id: String!) { deleteSegment(project_id: $project_id, id: $id) { _id } }`, { ...vars, id: segment._id }, token);
    expect(deleted.body.data.deleteSegment._id).toBe(segment._id);
  });

  it('reports an unknown operator as BAD_USER_INPUT naming it', async () => {
    const res = await t.gql(
      `mutation($project_id: String!) { createSegment(project_id: $project_id, name: "G", filters: [{ field: "email", operator: "~" }]) { _id } }`,
      { project_id: p.projectId },
      p.agent.token,
    );
    expect(res.body.errors?.[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'filters.0.operator' });
  });
});
