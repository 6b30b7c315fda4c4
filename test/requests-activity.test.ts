import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedTestApp, type SeededProject, type TestApp } from './helpers/app.js';
import { newRequestId, send } from './helpers/conversations.js';

// Each request's last activity and waiting start, kept on its row by triggers on its messages
// (migration 20261129120000_request_activity) for the inbox's last_activity and waiting_since
// orders, are always what its messages say, whichever way the messages were written.

let t: TestApp;
let p: SeededProject;

beforeAll(async () => {
  t = await sharedTestApp();
  p = await t.seedProject('Activity');
});
afterAll(() => t.close());

/** The requests of the project whose kept values differ from a recount of their messages. */
async function differingFromRecount() {
  return t.infra.database.prisma.$queryRaw<Array<{ request_id: string; kept: unknown; recounted: unknown }>>`
    SELECT r."request_id", json_build_array(r."last_activity_at", r."waiting_since") AS "kept",
      json_build_array(c."last", c."waiting") AS "recounted"
    FROM "Request" r, LATERAL (SELECT
      (SELECT max(m."createdAt") FROM "Message" m WHERE m."id_project" = r."id_project" AND m."request_id" = r."request_id") AS "last",
      (SELECT min(m."createdAt") FROM "Message" m
        WHERE m."id_project" = r."id_project" AND m."request_id" = r."request_id" AND m."sender" = r."createdBy"
          AND m."createdAt" > COALESCE((SELECT max(a."createdAt") FROM "Message" a
            WHERE a."id_project" = r."id_project" AND a."request_id" = r."request_id" AND a."sender" <> r."createdBy"), '-infinity'::timestamp)) AS "waiting") c
    WHERE r."id_project" = ${p.projectId}
      AND (r."last_activity_at" IS DISTINCT FROM c."last" OR r."waiting_since" IS DISTINCT FROM c."waiting")`;
}

async function kept(requestId: string) {
  return t.infra.database.prisma.request.findFirstOrThrow({
    where: { id_project: p.projectId, request_id: requestId },
    select: { last_activity_at: true, waiting_since: true },
  });
}

const post = async (token: string, requestId: string, text: string) => {
  const res = await send(t, p.projectId, token, requestId, { text });
  expect(res.status).toBe(200);
  return res.body as { createdAt: string };
};

describe('a request\'s kept activity', () => {
  it('starts the wait at the visitor\'s first unanswered message and ends it at an answer', async () => {
    const requestId = newRequestId();
    const asked = await post(p.guest.token, requestId, 'is anyone there?');
    await post(p.guest.token, requestId, 'hello?');
    expect((await kept(requestId)).waiting_since?.toISOString()).toBe(asked.createdAt);
    const answer = await post(p.admin.token, requestId, 'yes, how can I help?');
    expect(await kept(requestId)).toEqual({ last_activity_at: new Date(answer.createdAt), waiting_since: null });
    const again = await post(p.guest.token, requestId, 'my parcel is late');
    expect(await kept(requestId)).toEqual({ last_activity_at: new Date(again.createdAt), waiting_since: new Date(again.createdAt) });
    expect(await differingFromRecount()).toEqual([]);
  });

  it('equals a recount after many posts to many requests at once (the batched path)', async () => {
    const requests = Array.from({ length: 6 }, () => newRequestId());
    await Promise.all(requests.map((requestId) => post(p.guest.token, requestId, 'first')));
    await Promise.all(requests.flatMap((requestId, i) => [post(p.guest.token, requestId, 'second'), ...(i % 2 ? [post(p.admin.token, requestId, 'answer')] : [])]));
    expect(await differingFromRecount()).toEqual([]);
  });

  it('equals a recount after an import of earlier history into a conversation', async () => {
    const requestId = newRequestId();
    await post(p.guest.token, requestId, 'still waiting');
    const res = await t.post(`/v3/${p.projectId}/requests/${requestId}/messages/multi`, {
      token: p.admin.token,
      body: [
        { text: 'old question', sender: p.guest.userId, createdAt: '2024-01-01T10:00:00.000Z' },
        { text: 'old answer', sender: p.agent.userId, createdAt: '2024-01-01T10:05:00.000Z' },
      ],
    });
    expect(res.status).toBe(200);
    expect((await kept(requestId)).waiting_since).not.toBeNull();
    expect(await differingFromRecount()).toEqual([]);
  });

  it('equals a recount for both requests after a merge moves messages', async () => {
    const into = newRequestId();
    const from = newRequestId();
    await post(p.guest.token, into, 'first conversation');
    await post(p.admin.token, into, 'answered');
    await post(p.guest.token, from, 'second conversation, later');
    const res = await t.post(`/v3/${p.projectId}/requests/${into}/merge`, { token: p.admin.token, body: { from: [from] } });
    expect(res.status).toBe(200);
    expect((await kept(into)).waiting_since).not.toBeNull();
    expect(await differingFromRecount()).toEqual([]);
  });

  it('orders the inbox by it: newest activity first, longest waiting first', async () => {
    const [quiet, busy] = [newRequestId(), newRequestId()];
    await post(p.guest.token, quiet, 'asked first');
    await post(p.guest.token, busy, 'asked second');
    await post(p.admin.token, busy, 'answered');
    const order = async (query: string) =>
      ((await t.get(`/v3/${p.projectId}/requests?status=all&${query}`, { token: p.admin.token })).body.requests as Array<{ request_id: string }>)
        .map((r) => r.request_id)
        .filter((id) => id === quiet || id === busy);
    expect(await order('sortField=last_activity')).toEqual([busy, quiet]);
    expect(await order('sortField=waiting_since&direction=1&limit=100')).toEqual([quiet, busy]);
  });
});
