import { describe, expect, it } from 'vitest';
import { Prisma, type Request } from '../../src/generated/prisma/client.js';
import { visibility } from '../../src/modules/requests/access.js';
import type { Actor } from '../../src/modules/requests/actor.js';
import { holds, type Params } from '../../src/modules/requests/conditions.js';
import { MessageStatus, RequestStatus } from '../../src/modules/requests/states.js';
import {
  authorParams,
  batchFallbacks,
  batchParams,
  firstResponseData,
  firstResponseSql,
  isFirstResponse,
  messageCreated,
  messageRow,
  messageRowColumns,
  requestClosed,
  routesRequest,
  type MessageDraft,
} from '../../src/modules/messages/rules.js';
import { expectReadingsAgree, rows, selectValues } from './both-readings.js';

// The rules of a message (src/modules/messages/rules.ts), without an app: the row a post is
// stored as, the event it logs, and the conditions on its request that both ways of posting
// read (the general path in JavaScript, the batched statement as SQL), which must agree.

const { TEMPORARY, UNSERVED, ABANDONED, SERVED, CLOSED } = RequestStatus;

const draft: MessageDraft = {
  projectId: 'p1',
  requestId: 'support-group-p1-abc',
  sender: 'u1',
  senderFullname: 'Ann Agent',
  createdBy: 'u1',
  text: 'hello',
  type: 'text',
  attributes: { a: 1 },
  hidden: false,
};

const member = (role: string, id = 't1', idUser = 'u1') => ({ userId: idUser, fullname: 'X', member: { id, id_user: idUser, role } }) as unknown as Actor;
const bot = { userId: 'bot_b1', fullname: 'Bot', member: null } as Actor;

const request = (fields: Partial<Request>) =>
  ({ requester_id: 't9', status: UNSERVED, departmentId: null, participants: [], participatingAgents: [], first_response_at: null, ...fields }) as Request;

/** The first of `batchFallbacks` that holds, as the batched statement's CASE picks it. */
const fallbackOf = (row: Request, params: Params) => batchFallbacks.find(([, condition]) => holds(condition, row, params))?.[0] ?? null;

describe('the stored message', () => {
  it('is addressed to its request, RECEIVED, with the draft as it is', () => {
    expect(messageRow(draft)).toEqual({
      id_project: 'p1',
      request_id: 'support-group-p1-abc',
      recipient: 'support-group-p1-abc',
      sender: 'u1',
      senderFullname: 'Ann Agent',
      text: 'hello',
      type: 'text',
      metadata: undefined,
      attributes: { a: 1 },
      hidden: false,
      status: MessageStatus.RECEIVED,
      createdBy: 'u1',
    });
  });

  it('keeps a given creation time and metadata', () => {
    const createdAt = new Date('2026-01-02T03:04:05.000Z');
    expect(messageRow({ ...draft, createdAt, metadata: { src: 'x' } })).toMatchObject({ createdAt, metadata: { src: 'x' } });
  });

  it('has a SQL type for every column it writes, for the batched statement, and no other', () => {
    const written = Object.keys(messageRow({ ...draft, createdAt: new Date(), metadata: {} })).sort();
    expect(Object.keys(messageRowColumns).sort()).toEqual(written);
  });
});

describe('the message.create event', () => {
  it('names the message and carries what subscribers filter on (request, sender, hidden)', () => {
    expect(messageCreated({ id: 'm1', id_project: 'p1', request_id: 'r1', sender: 'u1', hidden: true })).toEqual({
      projectId: 'p1',
      name: 'message.create',
      subject: 'm1',
      payload: { request_id: 'r1', sender: 'u1', hidden: true },
    });
  });
});

describe('who writes', () => {
  it('is a teammate by its membership and viewer kind', () => {
    expect(authorParams(member('owner'))).toEqual({ kind: 'admin', teammateId: 't1', userId: 'u1' });
    expect(authorParams(member('agent', 't2', 'u2'))).toEqual({ kind: 'agent', teammateId: 't2', userId: 'u2' });
    expect(authorParams(member('guest'))).toEqual({ kind: 'end-user', teammateId: 't1', userId: 'u1' });
  });

  it('is a bot, with no membership, when there is none', () => {
    expect(authorParams(bot)).toEqual({ kind: 'bot', teammateId: null, userId: null });
  });
});

describe('what a message does to its request', () => {
  const requester = authorParams(member('user', 't9', 'u9'));

  it("routes a preflight or abandoned request when its requester writes", () => {
    for (const status of [TEMPORARY, ABANDONED]) expect(holds(routesRequest, request({ status }), requester), String(status)).toBe(true);
  });

  it('routes no request that is waiting, served or closed', () => {
    for (const status of [UNSERVED, SERVED, CLOSED]) expect(holds(routesRequest, request({ status }), requester), String(status)).toBe(false);
  });

  it('routes nothing when another teammate or a bot writes', () => {
    expect(holds(routesRequest, request({ status: TEMPORARY }), authorParams(member('agent')))).toBe(false);
    expect(holds(routesRequest, request({ status: TEMPORARY, requester_id: null }), authorParams(bot))).toBe(false);
  });

  it("counts an agent's (or admin's) first message to someone else's request as the first response", () => {
    expect(holds(isFirstResponse, request({}), authorParams(member('agent')))).toBe(true);
    expect(holds(isFirstResponse, request({}), authorParams(member('admin')))).toBe(true);
  });

  it('counts no first response once there was one, nor from an end user, the requester or a bot', () => {
    expect(holds(isFirstResponse, request({ first_response_at: new Date() }), authorParams(member('agent')))).toBe(false);
    expect(holds(isFirstResponse, request({}), authorParams(member('user')))).toBe(false);
    expect(holds(isFirstResponse, request({ requester_id: 't1' }), authorParams(member('agent')))).toBe(false);
    expect(holds(isFirstResponse, request({ requester_id: null }), authorParams(bot))).toBe(false);
  });

  it('refuses a message to a closed request only', () => {
    for (const status of [TEMPORARY, UNSERVED, ABANDONED, SERVED]) expect(holds(requestClosed, request({ status }), {}), String(status)).toBe(false);
    expect(holds(requestClosed, request({ status: CLOSED }), {})).toBe(true);
  });
});

describe('when the batched statement leaves a post to the general path', () => {
  const agent = batchParams(authorParams(member('agent', 't1', 'u1')));

  it('checks the reasons in this order', () => {
    expect(batchFallbacks.map(([reason]) => reason)).toEqual(['request_closed', 'visibility_unsure', 'routes_request']);
  });

  it('gives a closed request as the reason before any other', () => {
    expect(fallbackOf(request({ status: CLOSED, departmentId: 'd9', participatingAgents: ['u9'] }), agent)).toBe('request_closed');
  });

  it("leaves an agent's post to a request it may not see (or not surely) to the general path", () => {
    expect(fallbackOf(request({ departmentId: 'd1' }), agent)).toBe('visibility_unsure');
    expect(fallbackOf(request({ participatingAgents: ['u9'] }), agent)).toBe('visibility_unsure');
  });

  it("leaves an end user's post to a request not theirs to the general path", () => {
    expect(fallbackOf(request({ requester_id: 't2' }), batchParams(authorParams(member('user', 't1', 'u1'))))).toBe('visibility_unsure');
  });

  it('never doubts a bot (field auth has checked that it takes part)', () => {
    const asBot = batchParams(authorParams(bot));
    for (const row of rows) expect(fallbackOf(row as Request, asBot), row.id).not.toBe('visibility_unsure');
  });

  it("leaves the requester's post that routes its request to the general path, and writes an agent's first response", () => {
    expect(fallbackOf(request({ status: ABANDONED }), batchParams(authorParams(member('user', 't9', 'u9'))))).toBe('routes_request');
    expect(fallbackOf(request({ participants: ['u1'] }), agent)).toBeNull();
  });

  it("writes an agent's later post to a request it takes part in, and a requester's post to its waiting request", () => {
    expect(fallbackOf(request({ participants: ['u1'], first_response_at: new Date() }), agent)).toBeNull();
    expect(fallbackOf(request({ status: SERVED }), batchParams(authorParams(member('user', 't9', 'u9'))))).toBeNull();
  });

  it('writes no post the general path would refuse: whatever the batch writes, the author may see', () => {
    for (const actor of [member('agent', 't1', 'u1'), member('user', 't1', 'u1'), member('admin', 't2', 'u2')]) {
      const author = authorParams(actor);
      for (const departmentIds of [[], ['d1'], ['d1', 'd2']]) {
        for (const row of rows) {
          if (fallbackOf(row as Request, batchParams(author)) !== null) continue;
          expect(holds(visibility, row as Request, { ...author, departmentIds }), `${actor.member!.role} ${row.id}`).toBe(true);
        }
      }
    }
  });

  const authors: Array<[string, Actor]> = [
    ['an agent', member('agent', 't1', 'u1')],
    ['an admin', member('admin', 't2', 'u2')],
    ['an end user', member('user', 't1', 'u1')],
    ['a bot', bot],
  ];
  it('reads isFirstResponse (which the batch writes) in SQL as in JavaScript, for an agent, an admin, an end user and a bot', async () => {
    for (const [, actor] of authors) await expectReadingsAgree(isFirstResponse, batchParams(authorParams(actor)));
  });
  for (const [reason, condition] of batchFallbacks) {
    it(`reads ${reason} in SQL as in JavaScript, for an agent, an admin, an end user and a bot`, async () => {
      for (const [, actor] of authors) await expectReadingsAgree(condition, batchParams(authorParams(actor)));
    });
  }
});

describe('what a first response sets, read in JavaScript (the general path) and in SQL (the batch)', () => {
  const answeredAt = new Date('2026-01-02T03:04:05.678Z');
  const cases: Array<[string, Date | null]> = [
    ['30 days and 123 ms before', new Date(answeredAt.getTime() - 30 * 86_400_000 - 123)],
    ['at the same millisecond', answeredAt],
    ['after the answer (a client clock ahead): no negative wait', new Date(answeredAt.getTime() + 5000)],
    ['never: no wait known', null],
  ];
  const time = (d: Date | null) => Prisma.sql`${d?.toISOString() ?? null}::timestamp(3)`;

  it.each(cases)('the requester first wrote %s', async (_, requesterFirstAt) => {
    const sql = firstResponseSql(time(answeredAt), time(requesterFirstAt));
    const read = await selectValues<{ at: string; waiting: number | null }>(
      Prisma.sql`to_char(${sql.first_response_at}, 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "at", ${sql.waiting_time} AS "waiting"`,
    );
    const expected = firstResponseData(answeredAt, requesterFirstAt);
    expect({ at: read.at, waiting: read.waiting }).toEqual({ at: expected.first_response_at.toISOString(), waiting: expected.waiting_time });
  });
});
