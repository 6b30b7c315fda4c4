import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fullName } from '../src/modules/requests/request-rows.js';
import { RequestStatus } from '../src/modules/requests/states.js';
import { createTestApp, type SeededProject, type TestApp } from './helpers/app.js';

// The two ways a message is written, the batched statement (the fast path) and the general path
// (one transaction), give a client the same thing: the same cases (author role × request state ×
// first response given or not × author the requester or not) are posted once with batching on and
// once with it off, and the answer, the message and the request as REST then shows them, and the
// events logged about them are compared. Identifiers, ticket numbers and times differ by nature
// and are set aside (times as given or not).

let t: TestApp;
let p: SeededProject;

beforeAll(async () => {
  t = await createTestApp();
  p = await t.seedProject('Paths');
  // One available agent, so routing decides the same way in both runs.
  for (const teammateId of [p.admin.teammateId, p.owner.teammateId]) {
    const res = await t.put(`/v3/${p.projectId}/project_users/${teammateId}`, { token: p.owner.token, body: { user_available: false } });
    expect(res.status).toBe(200);
  }
});
afterAll(() => t?.close());

type Author = 'requester' | 'agent' | 'admin' | 'other-guest';
const authors: Author[] = ['requester', 'agent', 'admin', 'other-guest'];
const states = [RequestStatus.TEMPORARY, RequestStatus.UNSERVED, RequestStatus.ABANDONED, RequestStatus.SERVED, RequestStatus.CLOSED];
const firstResponses = [false, true];

const db = () => t.services.infra.database.prisma;
const lastSeq = async () => Number((await db().domainEvent.aggregate({ where: { id_project: p.projectId }, _max: { seq: true } }))._max.seq ?? 0);

let otherGuest: { token: string } | undefined;
async function tokenOf(author: Author) {
  if (author === 'requester') return p.guest.token;
  if (author === 'agent') return p.agent.token;
  if (author === 'admin') return p.admin.token;
  otherGuest ??= (await t.post('/v3/auth/signinAnonymously', { body: { id_project: p.projectId, firstname: 'Other' } })).body;
  return otherGuest!.token;
}

/** A request opened by the guest, then put in the case's state (served by the agent, or by nobody). */
async function prepare(status: number, answered: boolean) {
  const requestId = `support-group-${crypto.randomUUID()}`;
  const opened = await t.post(`/v3/${p.projectId}/requests/${requestId}/messages`, { token: p.guest.token, body: { text: 'first' } });
  expect(opened.status).toBe(200);
  const served = status === RequestStatus.SERVED || status === RequestStatus.CLOSED;
  await db().request.update({
    where: { id_project_request_id: { id_project: p.projectId, request_id: requestId } },
    data: {
      status,
      preflight: status === RequestStatus.TEMPORARY,
      participants: served ? [p.agent.userId] : [],
      participatingAgents: served ? [p.agent.userId] : [],
      first_response_at: answered ? new Date(Date.now() - 60_000) : null,
      waiting_time: answered ? 1000 : null,
    },
  });
  return requestId;
}

/**
 * Teammates' `number_assigned_requests` grows with every case's setup (each opens a request the
 * agent serves), so it differs between the two runs by the setup, not by the path.
 */
function withoutLoads(value: any): any {
  if (Array.isArray(value)) return value.map(withoutLoads);
  if (!value || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).filter(([k]) => k !== 'number_assigned_requests').map(([k, v]) => [k, withoutLoads(v)]));
}

const set = (value: unknown) => (value === null || value === undefined ? value : 'set');

/** What a client sees of a request, identifiers and times aside. */
function requestView(r: any) {
  if (!r || typeof r !== 'object') return r;
  const { _id, id, request_id, ticket_id, createdAt, updatedAt, assigned_at, first_response_at, closed_at, waiting_time, __v, ...rest } = r;
  return { ...rest, assigned_at: set(assigned_at), first_response_at: set(first_response_at), closed_at: set(closed_at), waiting_time: set(waiting_time) };
}

function messageView(m: any) {
  if (!m || typeof m !== 'object' || !('sender' in m)) return m;
  const { _id, id, recipient, createdAt, updatedAt, request, ...rest } = m;
  return { ...rest, request: requestView(request) };
}

async function run(batched: boolean, author: Author, status: number, answered: boolean) {
  const requestId = await prepare(status, answered);
  const before = await lastSeq();
  t.services.messages.batched = batched;
  const fallbacks = { ...t.services.messages.fallbacks() };
  let answer;
  try {
    answer = await t.post(`/v3/${p.projectId}/requests/${requestId}/messages`, { token: await tokenOf(author), body: { text: 'the case', attributes: { k: 1 } } });
  } finally {
    t.services.messages.batched = true;
  }
  const request = await t.get(`/v3/${p.projectId}/requests/${requestId}`, { token: p.owner.token });
  const message = answer.status === 200 ? await t.get(`/v3/${p.projectId}/requests/${requestId}/messages/${answer.body._id}`, { token: p.owner.token }) : null;
  const requestRow = await db().request.findUniqueOrThrow({ where: { id_project_request_id: { id_project: p.projectId, request_id: requestId } } });
  const subjects = new Set([requestRow.id, answer.body?._id]);
  const events = (await t.services.infra.eventLog.readAfter(p.projectId, before))
    .filter((e) => subjects.has(e.subject))
    .map((e) => ({ name: e.name, payload: { ...e.payload, request_id: e.payload.request_id === requestId ? 'the request' : e.payload.request_id } }));
  const fellBack = Object.values(t.services.messages.fallbacks()).reduce((a, b) => a + b, 0) - Object.values(fallbacks).reduce((a, b) => a + b, 0);
  return {
    seen: withoutLoads({
      status: answer.status,
      // An error's `request_id` names the HTTP request (for support), not the conversation.
      answer: answer.status === 200 ? messageView(answer.body) : { ...answer.body, request_id: undefined },
      message: message && messageView(message.body),
      request: requestView(request.body),
      events,
    }),
    fellBack,
  };
}

describe('a message posted by the batched statement or by the general path', () => {
  const cases = authors.flatMap((author) => states.flatMap((status) => firstResponses.map((answered) => [author, status, answered] as const)));

  it.each(cases)('%s writing to a request in status %i (first response given: %s) sees the same', async (author, status, answered) => {
    const general = await run(false, author, status, answered);
    const batched = await run(true, author, status, answered);
    expect(general.fellBack).toBe(0);
    expect(batched.seen).toEqual(general.seen);
  });

  it('the batched statement writes the plain posts, and counts every fall back with its reason', async () => {
    const before = { ...t.services.messages.fallbacks() };
    // The requester writing to a served request changes nothing on it: the batch writes it.
    const plain = await run(true, 'requester', RequestStatus.SERVED, true);
    expect(plain.fellBack).toBe(0);
    // An agent's first response sets it on the request in the same statement.
    const first = await run(true, 'agent', RequestStatus.SERVED, false);
    expect(first.fellBack).toBe(0);
    const closed = await run(true, 'requester', RequestStatus.CLOSED, true);
    expect(closed.seen.status).toBe(409);
    const after = t.services.messages.fallbacks();
    expect((after.request_closed ?? 0) - (before.request_closed ?? 0)).toBe(1);
  });
});

/** A post made through the service, as the REST route makes it: who posts, by teammate id. */
async function actor(teammateId: string) {
  const member = await t.services.teammates.get(p.projectId, teammateId);
  return { userId: member.id_user, fullname: fullName(member), member };
}

/** The first response as the request shows it, against the answer and the requester's first message. */
async function firstResponse(requestId: string, answer: { createdAt: string; request: any }) {
  const messages = await t.get(`/v3/${p.projectId}/requests/${requestId}/messages`, { token: p.owner.token });
  const opening = messages.body.find((m: any) => m.sender === p.guest.userId);
  const read = (await t.get(`/v3/${p.projectId}/requests/${requestId}`, { token: p.owner.token })).body;
  const expected = { first_response_at: answer.createdAt, waiting_time: Date.parse(answer.createdAt) - Date.parse(opening.createdAt) };
  return {
    answered: { first_response_at: answer.request.first_response_at, waiting_time: answer.request.waiting_time },
    stored: { first_response_at: read.first_response_at, waiting_time: read.waiting_time },
    expected,
  };
}

async function eventsAbout(requestId: string, before: number) {
  const row = await db().request.findUniqueOrThrow({ where: { id_project_request_id: { id_project: p.projectId, request_id: requestId } } });
  const messages = new Set((await db().message.findMany({ where: { id_project: p.projectId, request_id: requestId }, select: { id: true } })).map((m) => m.id));
  return (await t.services.infra.eventLog.readAfter(p.projectId, before))
    .filter((e) => e.subject === row.id || messages.has(e.subject))
    .map((e) => ({ name: e.name, subject: e.subject === row.id ? 'the request' : 'a message', payload: e.payload }));
}

describe('a first response written by the batched statement', () => {
  it.each([true, false])('an agent\'s first answer (batched: %s) sets first_response_at and waiting_time, then logs message.create and request.update', async (batched) => {
    const requestId = await prepare(RequestStatus.SERVED, false);
    const before = await lastSeq();
    const fallbacks = { ...t.services.messages.fallbacks() };
    t.services.messages.batched = batched;
    let answer;
    try {
      answer = await t.post(`/v3/${p.projectId}/requests/${requestId}/messages`, { token: p.agent.token, body: { text: 'hello' } });
    } finally {
      t.services.messages.batched = true;
    }
    expect(answer.status).toBe(200);
    if (batched) expect(t.services.messages.fallbacks()).toEqual(fallbacks);
    const seen = await firstResponse(requestId, answer.body);
    expect(seen.answered).toEqual(seen.expected);
    expect(seen.stored).toEqual(seen.expected);
    expect(await eventsAbout(requestId, before)).toEqual([
      { name: 'message.create', subject: 'a message', payload: { request_id: requestId, sender: p.agent.userId, hidden: false } },
      { name: 'request.update', subject: 'the request', payload: { request_id: requestId, fields: ['first_response_at', 'waiting_time'], status: RequestStatus.SERVED } },
    ]);
  });

  it('two agent posts in one batch: only the first is the first response', async () => {
    const requestId = await prepare(RequestStatus.SERVED, false);
    const before = await lastSeq();
    const fallbacks = { ...t.services.messages.fallbacks() };
    const [agent, admin] = await Promise.all([actor(p.agent.teammateId), actor(p.admin.teammateId)]);
    // Made in the same tick, both join one batch (it starts once the tick's posts are in).
    const [first, second] = await Promise.all([
      t.services.messages.post(p.projectId, agent, requestId, { text: 'one' }),
      t.services.messages.post(p.projectId, admin, requestId, { text: 'two' }),
    ]);
    expect(t.services.messages.fallbacks()).toEqual(fallbacks);
    expect(second.createdAt).toEqual(first.createdAt);
    expect(first.request!.first_response_at).toEqual(first.createdAt);
    expect(second.request!.first_response_at).toEqual(first.createdAt);
    expect(second.request!.waiting_time).toBe(first.request!.waiting_time);
    const events = await eventsAbout(requestId, before);
    expect(events.map((e) => `${e.name} ${e.subject}`)).toEqual(['message.create a message', 'request.update the request', 'message.create a message']);
    const read = (await t.get(`/v3/${p.projectId}/requests/${requestId}`, { token: p.owner.token })).body;
    expect(read.first_response_at).toBe(first.createdAt.toISOString());
  });

  it('a requester\'s post never sets it, alone or in a batch before an agent\'s answer', async () => {
    const requestId = await prepare(RequestStatus.SERVED, false);
    const before = await lastSeq();
    const fallbacks = { ...t.services.messages.fallbacks() };
    const alone = await t.post(`/v3/${p.projectId}/requests/${requestId}/messages`, { token: p.guest.token, body: { text: 'still there?' } });
    expect(alone.status).toBe(200);
    expect(alone.body.request).toMatchObject({ first_response_at: null, waiting_time: null });
    expect((await eventsAbout(requestId, before)).map((e) => e.name)).toEqual(['message.create']);
    const [guest, agent] = await Promise.all([actor(p.guest.teammateId), actor(p.agent.teammateId)]);
    const [asked, answered] = await Promise.all([
      t.services.messages.post(p.projectId, guest, requestId, { text: 'hello?' }),
      t.services.messages.post(p.projectId, agent, requestId, { text: 'here' }),
    ]);
    expect(t.services.messages.fallbacks()).toEqual(fallbacks);
    // The requester's post in the batch shows the request as it was; the answer, as it set it.
    expect(asked.request!.first_response_at).toBeNull();
    expect(answered.request!.first_response_at).toEqual(answered.createdAt);
    const seen = await firstResponse(requestId, JSON.parse(JSON.stringify(answered)));
    expect(seen.stored).toEqual(seen.expected);
  });
});
