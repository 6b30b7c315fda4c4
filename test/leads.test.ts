import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sharedTestApp, type SeededProject, type TestApp } from './helpers/app.js';

let t: TestApp;
let p: SeededProject;
let other: SeededProject;

beforeAll(async () => {
  t = await sharedTestApp();
  p = await t.seedProject('Leads');
  other = await t.seedProject('Elsewhere');
});
afterAll(() => t.close());

const path = (rest = '') => `/v3/${p.projectId}/leads${rest}`;

async function createLead(body: Record<string, unknown> = {}, project = p) {
  const res = await t.post(`/v3/${project.projectId}/leads`, { token: project.agent.token, body: { fullname: 'Ann Lee', ...body } });
  expect(res.status).toBe(200);
  return res.body;
}

async function eventNames(subject: string) {
  const events = await t.infra.database.prisma.domainEvent.findMany({ where: { subject }, orderBy: { seq: 'asc' } });
  return events.map((e) => e.name);
}

const names = (body: { leads: Array<{ fullname: string }> }) => body.leads.map((l) => l.fullname);

describe('POST /leads', () => {
  it('creates a lead with the standard fields', async () => {
    const res = await t.post(path(), {
      token: p.agent.token,
      body: { fullname: 'Mario Rossi', email: 'mario@example.test', lead_id: 'ext-1', attributes: { plan: 'pro' } },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      fullname: 'Mario Rossi',
      email: 'mario@example.test',
      lead_id: 'ext-1',
      attributes: { plan: 'pro' },
      tags: [],
      phone: null,
      id_project: p.projectId,
      createdBy: p.agent.userId,
      __v: 0,
    });
    expect(res.body._id).toBe(res.body.id);
    expect(await eventNames(res.body._id)).toEqual(['lead.create']);
  });

  it('updates the lead of a known lead_id instead of duplicating it', async () => {
    const first = await createLead({ lead_id: 'ext-same', email: 'a@example.test' });
    const again = await t.post(path(), { token: p.agent.token, body: { lead_id: 'ext-same', fullname: 'New Name' } });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ _id: first._id, fullname: 'New Name', email: 'a@example.test', __v: 1 });
    expect(await t.infra.database.prisma.lead.count({ where: { id_project: p.projectId, lead_id: 'ext-same' } })).toBe(1);
    expect(await eventNames(first._id)).toEqual(['lead.create', 'lead.update']);
  });

  it('creates one lead for concurrent creates with the same lead_id', async () => {
    const bodies = Array.from({ length: 4 }, (_, i) => ({ lead_id: 'ext-race', fullname: `Racer ${i}` }));
    const replies = await Promise.all(bodies.map((body) => t.post(path(), { token: p.agent.token, body })));
    expect(replies.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    expect(new Set(replies.map((r) => r.body._id)).size).toBe(1);
  });

  it('keeps lead_id unique per project only', async () => {
    const mine = await createLead({ lead_id: 'ext-both' });
    const theirs = await createLead({ lead_id: 'ext-both' }, other);
    expect(theirs._id).not.toBe(mine._id);
  });

  it('answers 400 naming an invalid e-mail', async () => {
    const res = await t.post(path(), { token: p.agent.token, body: { email: 'not-an-email' } });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'BAD_USER_INPUT', field: 'email' });
  });

  it('answers 400 naming attributes that are not an object', async () => {
    const res = await t.post(path(), { token: p.agent.token, body: { attributes: [1, 2] } });
    expect(res.status).toBe(400);
    expect(res.body.field).toBe('attributes');
  });
});

it('shows the record revision as __v and leaves an attribute named revision as it is', async () => {
  const lead = await createLead({ attributes: { revision: 'r2', nested: { revision: 3 } } });
  expect(lead).toMatchObject({ __v: 0, attributes: { revision: 'r2', nested: { revision: 3 } } });
  expect(lead).not.toHaveProperty('revision');
  const read = await t.get(`/v3/${p.projectId}/leads/${lead._id}`, { token: p.agent.token });
  expect(read.body).toMatchObject({ __v: 0, attributes: { revision: 'r2', nested: { revision: 3 } } });
});

describe('GET /leads', () => {
  let q: SeededProject;
  beforeAll(async () => {
    q = await t.seedProject('Listing');
    const people = [
      { fullname: 'Carla Bianchi', email: 'carla@acme.test', company: 'Acme', tags: ['vip', 'eu'] },
      { fullname: 'Bruno Verdi', email: 'bruno@globex.test', company: 'Globex', tags: ['eu'] },
      { fullname: 'Anna Neri', email: 'ANNA@initech.test', company: 'Initech Acme', tags: [] },
    ];
    for (const body of people) await createLead(body, q);
  });
  const list = (query = '') => t.get(`/v3/${q.projectId}/leads${query}`, { token: q.agent.token });

  it('answers perPage, count and the leads, newest first', async () => {
    const res = await list();
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ perPage: 40, count: 3 });
    expect(names(res.body)).toEqual(['Anna Neri', 'Bruno Verdi', 'Carla Bianchi']);
  });

  it('sorts by sortField and direction', async () => {
    expect(names((await list('?sortField=fullname&direction=1')).body)).toEqual(['Anna Neri', 'Bruno Verdi', 'Carla Bianchi']);
    expect(names((await list('?sortField=company&direction=-1')).body)).toEqual(['Anna Neri', 'Bruno Verdi', 'Carla Bianchi']);
    expect(names((await list('?sortField=createdAt&direction=1')).body)).toEqual(['Carla Bianchi', 'Bruno Verdi', 'Anna Neri']);
  });

  it('pages with page (0 first) and limit, counting every match', async () => {
    const res = await list('?sortField=fullname&direction=1&limit=2&page=1');
    expect(res.body).toMatchObject({ perPage: 2, count: 3 });
    expect(names(res.body)).toEqual(['Carla Bianchi']);
  });

  it('searches the beginning of the e-mail in any case', async () => {
    expect(names((await list('?email=anna@INITECH')).body)).toEqual(['Anna Neri']);
    expect(names((await list('?email=bruno@globex.test')).body)).toEqual(['Bruno Verdi']);
    expect((await list('?email=initech')).body.count).toBe(0);
  });

  it('searches full_text in name, e-mail and company, every word', async () => {
    expect(names((await list('?full_text=acme&sortField=fullname&direction=1')).body)).toEqual(['Anna Neri', 'Carla Bianchi']);
    expect(names((await list('?full_text=carla%20acme')).body)).toEqual(['Carla Bianchi']);
    expect(names((await list('?full_text=globex.test')).body)).toEqual(['Bruno Verdi']);
  });

  it('answers a page past the last one with no leads and the full count', async () => {
    const all = (await list('')).body;
    const past = (await list('?page=50')).body;
    expect(past.leads).toEqual([]);
    expect(past.count).toBe(all.count);
    expect(all.count).toBeGreaterThan(0);
    expect((await list('?email=nobody-at-all')).body).toMatchObject({ count: 0, leads: [] });
  });

  it('finds by e-mail exactly the addresses that begin with the text, next to others in order', async () => {
    const r = await t.seedProject('E-mail neighbours');
    for (const email of ['aa@x.test', 'a@x.test', 'ab@x.test', 'AB.c@x.test', 'abz@x.test', 'ac@x.test']) {
      await createLead({ fullname: email, email }, r);
    }
    const found = async (text: string) => {
      const res = await t.get(`/v3/${r.projectId}/leads?email=${encodeURIComponent(text)}`, { token: r.agent.token });
      return res.body.leads.map((lead: { fullname: string }) => lead.fullname).sort();
    };
    expect(await found('ab')).toEqual(['AB.c@x.test', 'ab@x.test', 'abz@x.test'].sort());
    expect(await found('a')).toHaveLength(6);
    expect(await found('abë')).toEqual([]);
    expect(await found('abz@x.test')).toEqual(['abz@x.test']);
  });

  it('treats % and _ in searches as plain characters', async () => {
    expect((await list('?full_text=%25')).body.count).toBe(0);
    expect((await list('?email=_')).body.count).toBe(0);
  });

  it('filters by tags, requiring all of them', async () => {
    expect(names((await list('?tags=eu&sortField=fullname&direction=1')).body)).toEqual(['Bruno Verdi', 'Carla Bianchi']);
    expect(names((await list('?tags=eu,vip')).body)).toEqual(['Carla Bianchi']);
    expect(names((await list('?tags=eu&tags=vip')).body)).toEqual(['Carla Bianchi']);
  });

  it('answers 400 naming a limit over 100', async () => {
    const res = await list('?limit=101');
    expect(res.status).toBe(400);
    expect(res.body.field).toBe('limit');
  });

  it('answers 400 naming an unknown sortField', async () => {
    const res = await list('?sortField=password');
    expect(res.status).toBe(400);
    expect(res.body.field).toBe('sortField');
  });

  it('answers 400 naming a direction other than 1 or -1', async () => {
    const res = await list('?direction=0');
    expect(res.status).toBe(400);
    expect(res.body.field).toBe('direction');
  });

  it('answers 404 for an unknown segment', async () => {
    expect((await list('?segment=unknown')).status).toBe(404);
  });

  it('shows timestamps in a list exactly as the lead record does', async () => {
    const db = t.infra.database.prisma;
    const times = ['2024-05-01T10:00:00.000Z', '2024-05-01T10:00:00.120Z', '2024-05-01T10:00:00.003Z'];
    for (const [i, at] of times.entries()) {
      await db.lead.create({ data: { id_project: p.projectId, fullname: `Timed ${i}`, createdBy: p.agent.userId, createdAt: new Date(at), updatedAt: new Date(at) } });
    }
    const listed = (await t.get(path('?full_text=timed&sortField=fullname&direction=1'), { token: p.agent.token })).body.leads;
    expect(listed.map((l: { createdAt: string }) => l.createdAt)).toEqual(times);
    for (const lead of listed) expect((await t.get(path(`/${lead._id}`), { token: p.agent.token })).body).toEqual(lead);
  });

  it('returns one lead by id', async () => {
    const lead = await createLead();
    const res = await t.get(path(`/${lead._id}`), { token: p.agent.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(lead);
  });
});

describe('GET /leads count', () => {
  // Lists keep their exact counts until the project's leads change: every check lists once first,
  // so the count a later list answers could only be stale if a change went unnoticed.
  let q: SeededProject;
  beforeEach(async () => {
    q = await t.seedProject('Counting');
    for (const fullname of ['Ada', 'Bea', 'Cid']) await createLead({ fullname, company: 'Acme', tags: ['eu'] }, q);
  });
  const count = async (query = '') => {
    const res = await t.get(`/v3/${q.projectId}/leads${query}`, { token: q.agent.token });
    expect(res.status).toBe(200);
    return res.body.count as number;
  };

  it('is exact right after a lead is created', async () => {
    expect(await count()).toBe(3);
    await createLead({ fullname: 'Dan' }, q);
    expect(await count()).toBe(4);
  });

  it('is exact right after a lead is updated out of a search', async () => {
    expect(await count('?tags=eu')).toBe(3);
    const [lead] = (await t.get(`/v3/${q.projectId}/leads?full_text=bea`, { token: q.agent.token })).body.leads;
    await t.put(`/v3/${q.projectId}/leads/${lead._id}`, { token: q.agent.token, body: { tags: [] } });
    expect(await count('?tags=eu')).toBe(2);
  });

  it('is exact right after a lead is deleted', async () => {
    expect(await count('?sortField=fullname&direction=1&limit=1&page=2')).toBe(3);
    const [lead] = (await t.get(`/v3/${q.projectId}/leads?full_text=ada`, { token: q.agent.token })).body.leads;
    await t.delete(`/v3/${q.projectId}/leads/${lead._id}`, { token: q.agent.token });
    expect(await count('?sortField=fullname&direction=1&limit=1&page=2')).toBe(2);
  });

  it('is exact right after leads are written to the table by other means', async () => {
    const db = t.infra.database.prisma;
    expect(await count()).toBe(3);
    await db.lead.createMany({ data: ['Eve', 'Fay'].map((fullname) => ({ id_project: q.projectId, fullname, createdBy: q.agent.userId })) });
    expect(await count()).toBe(5);
    await db.lead.updateMany({ where: { id_project: q.projectId, fullname: 'Eve' }, data: { company: 'Acme' } });
    expect(await count('?full_text=acme')).toBe(4);
    await db.lead.deleteMany({ where: { id_project: q.projectId, company: 'Acme' } });
    expect(await count()).toBe(1);
    expect(await count('?full_text=acme')).toBe(0);
  });

  it('does not count a change to another project', async () => {
    expect(await count()).toBe(3);
    await createLead({ fullname: 'Elsewhere' }, other);
    expect(await count()).toBe(3);
  });
});

describe('GET /leads searches, planned for their values at first and then from the count kept', () => {
  // 60 leads, a minute apart: "Common" words and tags on most, "Rare" on three, six with no tag.
  const people = Array.from({ length: 60 }, (_, i) => ({
    fullname: `${i % 20 === 0 ? 'Rare' : 'Common'} Person ${String(i).padStart(2, '0')}`,
    tags: i % 20 === 0 ? ['rare', 'common'] : i % 10 === 5 ? [] : ['common'],
    createdAt: new Date(Date.UTC(2026, 0, 1, 0, i)),
  }));
  let r: SeededProject;
  beforeAll(async () => {
    r = await t.seedProject('Search plans');
    await t.infra.database.prisma.lead.createMany({
      data: people.map((lead) => ({ ...lead, id_project: r.projectId, createdBy: r.agent.userId, updatedAt: lead.createdAt })),
    });
  });

  // Pages near the start of many matches (found by walking the sort index), of few matches and
  // deep pages (found by reading the matches through the search's index), a sort with no index.
  it.each([
    ['?tags=common&limit=10', (l: (typeof people)[0]) => l.tags.includes('common'), 0],
    ['?tags=common&limit=10&page=2', (l: (typeof people)[0]) => l.tags.includes('common'), 2],
    ['?tags=rare&limit=10', (l: (typeof people)[0]) => l.tags.includes('rare'), 0],
    ['?full_text=common&limit=10', (l: (typeof people)[0]) => l.fullname.startsWith('Common'), 0],
    ['?full_text=common&limit=10&page=2', (l: (typeof people)[0]) => l.fullname.startsWith('Common'), 2],
    ['?full_text=rare%20pers&limit=10', (l: (typeof people)[0]) => l.fullname.startsWith('Rare'), 0],
    ['?tags=common&full_text=person&limit=10&page=1', (l: (typeof people)[0]) => l.tags.includes('common'), 1],
  ] as const)('%s answers the same page and count on every call', async (query, matches, pageIndex) => {
    const matching = people.filter(matches).sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime());
    const expected = { count: matching.length, names: matching.slice(pageIndex * 10, pageIndex * 10 + 10).map((l) => l.fullname) };
    for (let call = 0; call < 3; call++) {
      const res = await t.get(`/v3/${r.projectId}/leads${query}`, { token: r.agent.token });
      expect(res.status).toBe(200);
      expect({ count: res.body.count, names: names(res.body) }).toEqual(expected);
    }
  });
});

describe('PUT /leads/:id', () => {
  it('updates every listed field', async () => {
    const lead = await createLead({ attributes: { old: true } });
    const body = {
      email: 'new@example.test',
      fullname: 'New Name',
      phone: '+39 123',
      company: 'Acme',
      note: 'Called twice',
      streetAddress: 'Via Roma 1',
      city: 'Rome',
      region: 'Lazio',
      zipcode: '00100',
      country: 'Italy',
      tags: ['vip', 'vip', 'eu'],
      attributes: { plan: 'pro' },
    };
    const res = await t.put(path(`/${lead._id}`), { token: p.agent.token, body });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ ...body, tags: ['vip', 'eu'], __v: 1 });
    expect(await eventNames(lead._id)).toEqual(['lead.create', 'lead.update']);
  });

  it('clears a field given as an empty string and keeps the others', async () => {
    const lead = await createLead({ phone: '+1 555', city: 'Paris' });
    const res = await t.put(path(`/${lead._id}`), { token: p.agent.token, body: { phone: '' } });
    expect(res.body).toMatchObject({ phone: null, city: 'Paris' });
  });

  it('answers 400 naming an invalid e-mail', async () => {
    const lead = await createLead();
    const res = await t.put(path(`/${lead._id}`), { token: p.agent.token, body: { email: 'nope' } });
    expect(res.status).toBe(400);
    expect(res.body.field).toBe('email');
  });
});

describe('DELETE /leads/:id', () => {
  it('returns the deleted lead, which is then gone', async () => {
    const lead = await createLead();
    const res = await t.delete(path(`/${lead._id}`), { token: p.agent.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(lead);
    expect((await t.get(path(`/${lead._id}`), { token: p.agent.token })).status).toBe(404);
    expect(await eventNames(lead._id)).toEqual(['lead.create', 'lead.delete']);
  });
});

describe('roles', () => {
  it('answers 403 to a user below agent', async () => {
    expect((await t.get(path(), { token: p.user.token })).status).toBe(403);
    expect((await t.post(path(), { token: p.guest.token, body: { fullname: 'x' } })).status).toBe(403);
  });

  it('answers 401 without credentials', async () => {
    expect((await t.get(path())).status).toBe(401);
  });
});

describe('tenancy', () => {
  it('answers 404 to another project owner naming their own project', async () => {
    const lead = await createLead();
    const url = `/v3/${other.projectId}/leads/${lead._id}`;
    expect((await t.get(url, { token: other.owner.token })).status).toBe(404);
    expect((await t.put(url, { token: other.owner.token, body: { fullname: 'Mine' } })).status).toBe(404);
    expect((await t.delete(url, { token: other.owner.token })).status).toBe(404);
  });

  it('answers 403 to another project owner naming this project', async () => {
    const lead = await createLead();
    expect((await t.get(path(`/${lead._id}`), { token: other.owner.token })).status).toBe(403);
  });

  it('lists only the leads of the project named', async () => {
    const lead = await createLead({ fullname: 'Only Mine' });
    const theirs = await t.get(`/v3/${other.projectId}/leads?full_text=Only%20Mine`, { token: other.owner.token });
    expect(theirs.body.leads.map((l: { _id: string }) => l._id)).not.toContain(lead._id);
  });
});

describe('GraphQL', () => {
  it('creates, lists, updates and deletes a lead', async () => {
    const token = p.agent.token;
    const vars = { project_id: p.projectId };
    const created = await t.gql(
      `mutation($project_id: String!) { createLead(project_id: $project_id, fullname: "Gina", email: "gina@example.test", tags: ["gql"]) { _id fullname tags } }`,
      vars,
      token,
    );
    const lead = created.body.data.createLead;
    expect(lead).toMatchObject({ fullname: 'Gina', tags: ['gql'] });

    const listed = await t.gql(
      `query($project_id: String!) { leads(project_id: $project_id, tags: ["gql"], full_text: "gina", sortField: "fullname", direction: 1, page: 0, limit: 10) { perPage count leads { _id } } }`,
      vars,
      token,
    );
    expect(listed.body.data.leads).toEqual({ perPage: 10, count: 1, leads: [{ _id: lead._id }] });

    const updated = await t.gql(
      `mutation($project_id: String!, $id: String!) { updateLead(project_id: $project_id, id: $id, email: null, city: "Turin") { email city fullname } }`,
      { ...vars, id: lead._id },
      token,
    );
    expect(updated.body.data.updateLead).toEqual({ email: null, city: 'Turin', fullname: 'Gina' });

    const read = await t.gql(`query($project_id: String!, $id: String!) { lead(project_id: $project_id, id: $id) { city } }`, { ...vars, id: lead._id }, token);
    expect(read.body.data.lead.city).toBe('Turin');

    const deleted = await t.gql(`mutation($project_id: String!, $id: String!) { deleteLead(project_id: $project_id, id: $id) { _id } }`, { ...vars, id: lead._id }, token);
    expect(deleted.body.data.deleteLead._id).toBe(lead._id);
  });
});
