import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedTestApp, type SeededProject, type TestApp } from './helpers/app.js';
import { newRequestId, openRequest, send } from './helpers/conversations.js';

// The analytics' message counts (sent, received) come from a tally kept per project, hour and side
// by triggers on "Message" (migration 20261129152000_message_hourly_tally), with the window's first,
// partial hour counted from its messages. Whatever writes the messages, the figure is what
// counting the window's messages says.

let t: TestApp;
let p: SeededProject;
const day = 86_400_000;

beforeAll(async () => {
  t = await sharedTestApp();
  p = await t.seedProject('Message tally');
});
afterAll(() => t.close());

/** messages/count as a client reads it, beside a count of the window's messages. */
async function figureAndRecount() {
  const res = await t.get(`/v3/${p.projectId}/analytics/messages/count`, { token: p.admin.token });
  expect(res.status).toBe(200);
  const [recount] = await t.infra.database.prisma.$queryRaw<Array<{ count: number; sent: number; received: number }>>`
    SELECT count(*)::int AS count, (count(*) FILTER (WHERE m."sender" IS DISTINCT FROM r."createdBy"))::int AS sent,
      (count(*) FILTER (WHERE m."sender" = r."createdBy"))::int AS received
    FROM "Message" m LEFT JOIN "Request" r ON r."id_project" = m."id_project" AND r."request_id" = m."request_id"
    WHERE m."id_project" = ${p.projectId} AND m."createdAt" >= ${new Date(Date.now() - 30 * day)}`;
  return { figure: res.body, recount };
}

/** Hours whose kept tally differs from a count of their messages. */
async function hoursDifferingFromRecount() {
  return t.infra.database.prisma.$queryRaw<unknown[]>`
    SELECT * FROM (
      SELECT "hour", "received", sum("messages")::int AS "messages" FROM "MessageHourlyTally" WHERE "id_project" = ${p.projectId} GROUP BY 1, 2
    ) kept FULL JOIN (
      SELECT date_trunc('hour', m."createdAt") AS "hour", m."sender" IS NOT DISTINCT FROM r."createdBy" AS "received", count(*)::int AS "messages"
      FROM "Message" m LEFT JOIN "Request" r ON r."id_project" = m."id_project" AND r."request_id" = m."request_id"
      WHERE m."id_project" = ${p.projectId} GROUP BY 1, 2
    ) counted USING ("hour", "received")
    WHERE kept."messages" IS DISTINCT FROM counted."messages" AND COALESCE(kept."messages", 0) + COALESCE(counted."messages", 0) <> 0`;
}

describe('messages/count', () => {
  it('counts a conversation\'s visitor messages as received and the answers as sent', async () => {
    const before = (await figureAndRecount()).figure;
    const requestId = await openRequest(t, p, { text: 'where is my parcel?' });
    await send(t, p.projectId, p.guest.token, requestId, { text: 'hello?' });
    await send(t, p.projectId, p.admin.token, requestId, { text: 'on its way' });
    const { figure, recount } = await figureAndRecount();
    expect(figure).toEqual(recount);
    expect({ sent: figure.sent - before.sent, received: figure.received - before.received }).toEqual({ sent: 1, received: 2 });
  });

  it('equals a recount after history imported across the window\'s edge, a merge and a deletion', async () => {
    const [into, from, gone] = [await openRequest(t, p), await openRequest(t, p), await openRequest(t, p)];
    // Older than the window, at its first (partial) hour and inside it.
    const at = (msAgo: number) => new Date(Date.now() - msAgo).toISOString();
    const imported = await t.post(`/v3/${p.projectId}/requests/${into}/messages/multi`, {
      token: p.admin.token,
      body: [
        { text: 'long ago', sender: p.guest.userId, createdAt: at(31 * day) },
        { text: 'at the edge', sender: p.guest.userId, createdAt: at(30 * day - 60_000) },
        { text: 'answered at the edge', sender: p.agent.userId, createdAt: at(30 * day - 30_000) },
        { text: 'last week', sender: p.agent.userId, createdAt: at(7 * day) },
      ],
    });
    expect(imported.status).toBe(200);
    expect((await t.post(`/v3/${p.projectId}/requests/${into}/merge`, { token: p.admin.token, body: { from: [from] } })).status).toBe(200);
    expect((await t.delete(`/v3/${p.projectId}/requests/${gone}`, { token: p.owner.token })).status).toBe(200);
    const { figure, recount } = await figureAndRecount();
    expect(figure).toEqual(recount);
    expect(await hoursDifferingFromRecount()).toEqual([]);
  });

  it('equals a recount after many posts at once (the batched path)', async () => {
    const requests = Array.from({ length: 6 }, () => newRequestId());
    await Promise.all(requests.map((requestId) => send(t, p.projectId, p.guest.token, requestId, { text: 'first' })));
    await Promise.all(requests.flatMap((requestId) => [send(t, p.projectId, p.guest.token, requestId, { text: 'again' }), send(t, p.projectId, p.admin.token, requestId, { text: 'answer' })]));
    const { figure, recount } = await figureAndRecount();
    expect(figure).toEqual(recount);
    expect(await hoursDifferingFromRecount()).toEqual([]);
  });
});
