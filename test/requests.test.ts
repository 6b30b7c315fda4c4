import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedTestApp, type SeededProject, type TestApp } from './helpers/app.js';
import { newRequestId, onlyAvailable, openRequest, send } from './helpers/conversations.js';
import { withoutRequestId } from './helpers/errors.js';

let t: TestApp;
beforeAll(async () => {
  t = await sharedTestApp();
});
afterAll(() => t.close());

const path = (p: SeededProject, requestId: string, rest = '') => `/v3/${p.projectId}/requests/${requestId}${rest}`;

describe('POST /v3/:project_id/requests/', () => {
  let p: SeededProject;
  beforeAll(async () => {
    p = await t.seedProject();
  });

  it('creates an empty conversation with a generated request_id', async () => {
    const res = await t.post(`/v3/${p.projectId}/requests/`, { token: p.guest.token, body: { first_text: 'Imported chat', language: 'de' } });
    expect(res.status).toBe(200);
    expect(res.body.request_id).toMatch(/^support-group-[0-9a-f-]{36}$/);
    expect(res.body).toMatchObject({ first_text: 'Imported chat', language: 'de', requester_id: p.guest.teammateId });
    expect((await t.get(path(p, res.body.request_id, '/messages'), { token: p.guest.token })).body).toEqual([]);
  });

  it('keeps a given request_id and answers 409 when it exists', async () => {
    const requestId = newRequestId();
    const first = await t.post(`/v3/${p.projectId}/requests`, { token: p.guest.token, body: { request_id: requestId, sender: 'ignored' } });
    expect(first.body.request_id).toBe(requestId);
    const again = await t.post(`/v3/${p.projectId}/requests`, { token: p.guest.token, body: { request_id: requestId } });
    expect(again.status).toBe(409);
    expect(again.body.field).toBe('request_id');
  });

  it('answers 400 for a request_id of the wrong shape', async () => {
    const res = await t.post(`/v3/${p.projectId}/requests`, { token: p.guest.token, body: { request_id: 'abc' } });
    expect(res.status).toBe(400);
    expect(res.body.field).toBe('request_id');
  });

  it('numbers tickets per project without gaps under concurrency', async () => {
    const fresh = await t.seedProject('Tickets');
    const created = await Promise.all(
      Array.from({ length: 12 }, () => t.post(`/v3/${fresh.projectId}/requests`, { token: fresh.guest.token, body: {} })),
    );
    expect(created.every((r) => r.status === 200)).toBe(true);
    const tickets = created.map((r) => Number(r.body.ticket_id)).sort((a, b) => a - b);
    expect(tickets).toEqual(Array.from({ length: 12 }, (_, i) => i + 1));
  });

  it('opens conversations a visitor starts at once, each 200, under one lead', async () => {
    const fresh = await t.seedProject('One lead');
    // Pooled routing takes no agent's row: nothing else puts the openings one after another.
    const pooled = await t.post(`/v3/${fresh.projectId}/departments`, { token: fresh.owner.token, body: { name: 'Pooled' } });
    expect(pooled.body.routing).toBe('pooled');
    const created = await Promise.all(
      Array.from({ length: 8 }, () => t.post(`/v3/${fresh.projectId}/requests`, { token: fresh.guest.token, body: { departmentid: pooled.body._id } })),
    );
    expect(created.map((r) => r.status)).toEqual(Array(8).fill(200));
    expect(new Set(created.map((r) => r.body.lead._id)).size).toBe(1);
    const leads = (await t.get(`/v3/${fresh.projectId}/leads`, { token: fresh.owner.token })).body;
    expect(leads.count).toBe(1);
  });

  it('creates one request when two first messages race', async () => {
    const requestId = newRequestId();
    const [a, b] = await Promise.all([send(t, p.projectId, p.guest.token, requestId, { text: 'a' }), send(t, p.projectId, p.guest.token, requestId, { text: 'b' })]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(a.body.request._id).toBe(b.body.request._id);
    expect((await t.get(path(p, requestId, '/messages'), { token: p.admin.token })).body).toHaveLength(2);
  });
});

describe('GET /v3/:project_id/requests/:request_id', () => {
  let p: SeededProject;
  beforeAll(async () => {
    p = await t.seedProject();
    await onlyAvailable(t, p, [p.owner]);
  });

  it('shows the request fields of the spec', async () => {
    const requestId = await openRequest(t, p, { text: 'Where is my order?', userAgent: 'UA' });
    const res = await t.get(path(p, requestId), { token: p.admin.token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      request_id: requestId,
      first_text: 'Where is my order?',
      status: 200,
      participants: [p.owner.userId],
      participantsAgents: [p.owner.userId],
      participantsBots: [],
      participatingAgents: [p.owner.userId],
      participatingBots: [],
      hasBot: false,
      priority: 'normal',
      preflight: false,
      channel: { name: 'chat21' },
      location: null,
      assignment_reason: 'least_loaded',
      userAgent: 'UA',
      tags: [],
      notes: [],
    });
    expect(res.body.lead).toMatchObject({ lead_id: p.guest.userId, fullname: 'Visitor' });
    expect(res.body.requester).toMatchObject({ _id: p.guest.teammateId, role: 'guest' });
    expect(res.body.agents.map((a: { _id: string }) => a._id)).toEqual([p.owner.teammateId]);
    expect(res.body.snapshot).toMatchObject({ availableAgentsCount: 1, requester: { id: p.guest.teammateId }, lead: { lead_id: p.guest.userId } });
    expect(res.body.department.name).toBe('Default Department');
    expect(res.body.assigned_at).toEqual(expect.any(String));
  });

  it('shows a guest the request they opened', async () => {
    const requestId = await openRequest(t, p);
    const res = await t.get(path(p, requestId), { token: p.guest.token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ request_id: requestId, requester_id: p.guest.teammateId });
  });

  it('answers a guest 404 for another visitor\'s request, as for an unknown one', async () => {
    const requestId = await openRequest(t, p);
    const visitor = await t.post('/v3/auth/signinAnonymously', { body: { id_project: p.projectId, firstname: 'Eve' } });
    const res = await t.get(path(p, requestId), { token: visitor.body.token });
    expect(res.status).toBe(404);
    expect(withoutRequestId(res.body)).toEqual(withoutRequestId((await t.get(path(p, newRequestId()), { token: visitor.body.token })).body));
  });

  it('shows a user the request they opened and answers 404 for one they did not', async () => {
    const own = newRequestId();
    await send(t, p.projectId, p.user.token, own);
    expect((await t.get(path(p, own), { token: p.user.token })).status).toBe(200);
    expect((await t.get(path(p, await openRequest(t, p)), { token: p.user.token })).status).toBe(404);
  });

  it('leaves the agents\' notes out of what the requester reads', async () => {
    const requestId = await openRequest(t, p);
    await t.post(path(p, requestId, '/notes'), { token: p.admin.token, body: { text: 'Rude customer' } });
    expect((await t.get(path(p, requestId), { token: p.guest.token })).body.notes).toEqual([]);
    expect((await t.get(path(p, requestId), { token: p.admin.token })).body.notes).toMatchObject([{ text: 'Rude customer' }]);
  });

  it('answers the GraphQL request query to a guest for their own request, NOT_FOUND for another\'s', async () => {
    const own = await openRequest(t, p);
    const visitor = await t.post('/v3/auth/signinAnonymously', { body: { id_project: p.projectId, firstname: 'Eve' } });
    const query = `query($p: String!, $r: String!) { request(project_id: $p, request_id: $r) { request_id participantsAgents } }`;
    const mine = await t.gql(query, { p: p.projectId, r: own }, p.guest.token);
    expect(mine.body.data.request).toEqual({ request_id: own, participantsAgents: [p.owner.userId] });
    const theirs = await t.gql(query, { p: p.projectId, r: own }, visitor.body.token);
    expect(theirs.body.errors?.[0].extensions?.code).toBe('NOT_FOUND');
  });

  it('hides a request served by someone else from an agent outside it', async () => {
    const requestId = await openRequest(t, p);
    expect((await t.get(path(p, requestId), { token: p.agent.token })).status).toBe(403);
  });

  it('answers 404 for an unknown request and for one of another project', async () => {
    expect((await t.get(path(p, newRequestId()), { token: p.admin.token })).status).toBe(404);
    const other = await t.seedProject('Other');
    const requestId = await openRequest(t, other);
    expect((await t.get(path(p, requestId), { token: p.admin.token })).status).toBe(404);
  });

  it('refuses a guest reading a request of another project (403: not a member there)', async () => {
    const other = await t.seedProject('Other');
    const requestId = await openRequest(t, other);
    expect((await t.get(`/v3/${other.projectId}/requests/${requestId}`, { token: p.guest.token })).status).toBe(403);
  });
});

describe('request state machine', () => {
  let p: SeededProject;
  beforeAll(async () => {
    p = await t.seedProject();
  });
  const patch = (requestId: string, body: Record<string, unknown>, token = p.admin.token) => t.patch(path(p, requestId), { token, body });
  /** A request of a pooled department: UNSERVED until someone takes it. */
  const waitingRequest = async () => {
    const pool = await t.post(`/v3/${p.projectId}/departments`, { token: p.admin.token, body: { name: 'Pool', routing: 'pooled' } });
    return openRequest(t, p, { departmentid: pool.body._id });
  };

  it('starts a preflight request TEMPORARY and routes it on the requester\'s first message', async () => {
    const created = await t.post(`/v3/${p.projectId}/requests`, { token: p.guest.token, body: { preflight: true } });
    expect(created.body).toMatchObject({ status: 50, preflight: true, participants: [] });
    const first = await send(t, p.projectId, p.guest.token, created.body.request_id);
    expect(first.body.request).toMatchObject({ status: 200, preflight: false, assignment_reason: 'least_loaded' });
  });

  it('keeps a preflight request TEMPORARY while only agents write', async () => {
    const created = await t.post(`/v3/${p.projectId}/requests`, { token: p.guest.token, body: { preflight: true } });
    const proactive = await send(t, p.projectId, p.admin.token, created.body.request_id, { text: 'Need help?' });
    expect(proactive.body.request).toMatchObject({ status: 50, preflight: true });
  });

  it('moves UNSERVED to ABANDONED and back by a status update', async () => {
    const requestId = await waitingRequest();
    expect((await patch(requestId, { status: 150 })).body.status).toBe(150);
    expect((await patch(requestId, { status: 100 })).body.status).toBe(100);
  });

  it('routes an ABANDONED request again when the requester writes', async () => {
    const requestId = await waitingRequest();
    await patch(requestId, { status: 150 });
    const back = await send(t, p.projectId, p.guest.token, requestId, { text: 'still there?' });
    expect(back.body.request).toMatchObject({ status: 100, assignment_reason: 'pooled' });
  });

  it('answers 409 for SERVED to ABANDONED', async () => {
    const requestId = await openRequest(t, p);
    const res = await patch(requestId, { status: 150 });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: 'CONFLICT', field: 'status' });
  });

  it('answers 409 for SERVED by a status update (serving comes from routing)', async () => {
    const requestId = await waitingRequest();
    expect((await patch(requestId, { status: 200 })).status).toBe(409);
  });

  it('answers 409 for a move back to TEMPORARY', async () => {
    const requestId = await openRequest(t, p);
    expect((await patch(requestId, { status: 50 })).status).toBe(409);
  });

  it('answers 400 for a status that is not a request state', async () => {
    const requestId = await openRequest(t, p);
    expect((await patch(requestId, { status: 999 })).body).toMatchObject({ code: 'BAD_USER_INPUT', field: 'status' });
  });

  it('closes with closed_at, closed_by and the transcript, and logs request.close', async () => {
    const requestId = await openRequest(t, p, { text: 'Order 42 is late' });
    await send(t, p.projectId, p.admin.token, requestId, { text: 'Checking' });
    await send(t, p.projectId, p.admin.token, requestId, { text: 'internal note', attributes: { hidden: true } });
    const res = await t.put(path(p, requestId, '/close'), { token: p.admin.token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 1000, closed_by: p.admin.userId });
    expect(res.body.closed_at).toEqual(expect.any(String));
    expect(res.body.transcript).toMatch(/Visitor: Order 42 is late\n.*admin Test: Checking$/);
    const event = await t.infra.database.prisma.domainEvent.findFirst({ where: { name: 'request.close', subject: res.body._id } });
    expect(event?.payload).toMatchObject({ request_id: requestId, status: 1000 });
  });

  it('lets the requester close their own request', async () => {
    const requestId = await openRequest(t, p);
    expect((await t.put(path(p, requestId, '/close'), { token: p.guest.token })).body.status).toBe(1000);
  });

  it('closes by a status update to 1000', async () => {
    const requestId = await openRequest(t, p);
    const res = await patch(requestId, { status: 1000, tags: ['solved'] });
    expect(res.body).toMatchObject({ status: 1000, closed_by: p.admin.userId, tags: [{ tag: 'solved' }] });
  });

  it('answers 409 for closing twice and for a message to a closed request', async () => {
    const requestId = await openRequest(t, p);
    await t.put(path(p, requestId, '/close'), { token: p.admin.token });
    expect((await t.put(path(p, requestId, '/close'), { token: p.admin.token })).status).toBe(409);
    expect((await send(t, p.projectId, p.guest.token, requestId)).status).toBe(409);
    expect((await patch(requestId, { status: 100 })).status).toBe(409);
  });

  it('reopens a closed request to SERVED when its agent still takes part', async () => {
    const requestId = await openRequest(t, p);
    await t.put(path(p, requestId, '/close'), { token: p.admin.token });
    const res = await t.put(path(p, requestId, '/reopen'), { token: p.admin.token });
    expect(res.body).toMatchObject({ status: 200, closed_at: null, closed_by: null, transcript: null });
  });

  it('answers 409 for reopening an open request', async () => {
    const requestId = await openRequest(t, p);
    expect((await t.put(path(p, requestId, '/reopen'), { token: p.admin.token })).status).toBe(409);
  });
});

describe('PATCH /v3/:project_id/requests/:request_id', () => {
  let p: SeededProject;
  beforeAll(async () => {
    p = await t.seedProject();
  });

  it('updates the fields and merges attributes', async () => {
    const requestId = await openRequest(t, p, { attributes: { plan: 'gold' } });
    const lead = await t.post(`/v3/${p.projectId}/leads`, { token: p.admin.token, body: { email: 'bob@example.test', fullname: 'Bob' } });
    const res = await t.patch(path(p, requestId), {
      token: p.admin.token,
      body: {
        first_text: 'Edited',
        lead: lead.body._id,
        tags: ['vip', { tag: 'billing', color: '#ff0000' }],
        rating: 4,
        rating_message: 'good',
        language: 'es',
        sourcePage: 'https://x.example',
        priority: 'hight',
        attributes: { vip: true },
      },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      first_text: 'Edited',
      tags: [{ tag: 'vip' }, { tag: 'billing', color: '#ff0000' }],
      rating: 4,
      rating_message: 'good',
      language: 'es',
      sourcePage: 'https://x.example',
      priority: 'hight',
      attributes: { plan: 'gold', vip: true },
    });
    expect(res.body.lead._id).toBe(lead.body._id);
    const event = await t.infra.database.prisma.domainEvent.findFirst({ where: { name: 'request.update', subject: res.body._id }, orderBy: { seq: 'desc' } });
    expect(event?.payload).toMatchObject({ request_id: requestId, fields: expect.arrayContaining(['first_text', 'priority']) });
  });

  it('answers 400 for an unknown priority, a rating over 5 and a lead of nobody', async () => {
    const requestId = await openRequest(t, p);
    expect((await t.patch(path(p, requestId), { token: p.admin.token, body: { priority: 'high' } })).body.field).toBe('priority');
    expect((await t.patch(path(p, requestId), { token: p.admin.token, body: { rating: 6 } })).body.field).toBe('rating');
    expect((await t.patch(path(p, requestId), { token: p.admin.token, body: { lead: 'nobody' } })).body.field).toBe('lead');
  });

  it('needs the agent role', async () => {
    const requestId = await openRequest(t, p);
    expect((await t.patch(path(p, requestId), { token: p.guest.token, body: { first_text: 'x' } })).status).toBe(403);
  });
});

describe('rating, notes, tags, chatbot parameters, delete', () => {
  let p: SeededProject;
  beforeAll(async () => {
    p = await t.seedProject();
  });

  it('accepts rate/rate_message from the requester', async () => {
    const requestId = await openRequest(t, p);
    const res = await t.patch(path(p, requestId, '/rating'), { token: p.guest.token, body: { rate: 4, rate_message: 'quick' } });
    expect(res.body).toMatchObject({ rating: 4, rating_message: 'quick' });
  });

  it('accepts rating/rating_message as the sample sends them', async () => {
    const requestId = await openRequest(t, p);
    const res = await t.patch(path(p, requestId, '/rating'), { token: p.guest.token, body: { rating: 5, rating_message: 'great' } });
    expect(res.body).toMatchObject({ rating: 5, rating_message: 'great' });
  });

  it('accepts any number from 0 to 5, such as 4.5, and keeps it as given', async () => {
    const requestId = await openRequest(t, p);
    const res = await t.patch(path(p, requestId, '/rating'), { token: p.guest.token, body: { rating: 4.5 } });
    expect(res.status).toBe(200);
    expect(res.body.rating).toBe(4.5);
    expect((await t.get(path(p, requestId), { token: p.admin.token })).body.rating).toBe(4.5);
  });

  it('answers 400 for a rating outside 0 to 5 or missing', async () => {
    const requestId = await openRequest(t, p);
    expect((await t.patch(path(p, requestId, '/rating'), { token: p.guest.token, body: { rate: 9 } })).status).toBe(400);
    expect((await t.patch(path(p, requestId, '/rating'), { token: p.guest.token, body: { rating: -1 } })).status).toBe(400);
    expect((await t.patch(path(p, requestId, '/rating'), { token: p.guest.token, body: {} })).body.field).toBe('rating');
  });

  it('refuses a rating by another end user', async () => {
    const requestId = await openRequest(t, p);
    const other = await t.post('/v3/auth/signinAnonymously', { body: { id_project: p.projectId, firstname: 'Eve' } });
    expect((await t.patch(path(p, requestId, '/rating'), { token: other.body.token, body: { rate: 1 } })).status).toBe(403);
  });

  it('adds and removes notes', async () => {
    const requestId = await openRequest(t, p);
    const added = await t.post(path(p, requestId, '/notes'), { token: p.admin.token, body: { text: 'Called back' } });
    expect(added.body.notes).toMatchObject([{ text: 'Called back', createdBy: p.admin.userId }]);
    const noteId = added.body.notes[0]._id;
    const removed = await t.delete(path(p, requestId, '/notes'), { token: p.admin.token, body: { note_id: noteId } });
    expect(removed.body.notes).toEqual([]);
    expect((await t.delete(path(p, requestId, `/notes?note_id=${noteId}`), { token: p.admin.token })).status).toBe(404);
    expect((await t.post(path(p, requestId, '/notes'), { token: p.admin.token, body: { text: '' } })).status).toBe(400);
    expect((await t.post(path(p, requestId, '/notes'), { token: p.guest.token, body: { text: 'x' } })).status).toBe(403);
  });

  it('adds tags once each and removes one by name', async () => {
    const requestId = await openRequest(t, p);
    await t.put(path(p, requestId, '/tag'), { token: p.admin.token, body: { tag: 'vip', color: '#00ff00' } });
    const twice = await t.put(path(p, requestId, '/tag'), { token: p.admin.token, body: { tags: ['vip', 'refund'] } });
    expect(twice.body.tags).toEqual([{ tag: 'vip', color: '#00ff00' }, { tag: 'refund' }]);
    const removed = await t.delete(path(p, requestId, '/tag/vip'), { token: p.admin.token });
    expect(removed.body.tags).toEqual([{ tag: 'refund' }]);
    expect((await t.delete(path(p, requestId, '/tag/vip'), { token: p.admin.token })).status).toBe(404);
    expect((await t.put(path(p, requestId, '/tag'), { token: p.admin.token, body: {} })).body.field).toBe('tag');
  });

  it('answers the chatbot parameters, an empty object until a bot stores some', async () => {
    const requestId = await openRequest(t, p);
    const empty = await t.get(path(p, requestId, '/chatbot/parameters'), { token: p.guest.token });
    expect(empty.status).toBe(200);
    expect(empty.body).toEqual({});
    await t.patch(path(p, requestId), { token: p.admin.token, body: { attributes: { chatbot_parameters: { order: '42' } } } });
    expect((await t.get(path(p, requestId, '/chatbot/parameters'), { token: p.guest.token })).body).toEqual({ order: '42' });
  });

  it('deletes a request and its messages for the owner only', async () => {
    const requestId = await openRequest(t, p);
    expect((await t.delete(path(p, requestId), { token: p.admin.token })).status).toBe(403);
    const res = await t.delete(path(p, requestId), { token: p.owner.token });
    expect(res.status).toBe(200);
    expect((await t.get(path(p, requestId), { token: p.owner.token })).status).toBe(404);
    expect(await t.infra.database.prisma.message.count({ where: { request_id: requestId } })).toBe(0);
  });
});
