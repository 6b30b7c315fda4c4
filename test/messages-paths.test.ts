import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
    // An agent's first response changes the request: the general path applies it.
    const first = await run(true, 'agent', RequestStatus.SERVED, false);
    expect(first.fellBack).toBe(1);
    const closed = await run(true, 'requester', RequestStatus.CLOSED, true);
    expect(closed.seen.status).toBe(409);
    const after = t.services.messages.fallbacks();
    expect((after.first_response ?? 0) - (before.first_response ?? 0)).toBe(1);
    expect((after.request_closed ?? 0) - (before.request_closed ?? 0)).toBe(1);
  });
});
