import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedTestApp, type SeededProject, type TestApp } from './helpers/app.js';
import { onlyAvailable, openRequest, send } from './helpers/conversations.js';

// One project with known conversations; times the API cannot set (creation, close, waiting)
// are fixed in the database so every figure has an exact expected value.
let t: TestApp;
let p: SeededProject;
const day = 86_400_000;
const today = new Date().toISOString().slice(0, 10);

beforeAll(async () => {
  t = await sharedTestApp();
  p = await t.seedProject();
  await onlyAvailable(t, p, [p.agent]);
  const db = t.infra.database.prisma;

  const served = await openRequest(t, p, { text: 'a' }); // SERVED
  await send(t, p.projectId, p.agent.token, served, { text: 'reply' });
  const rated = await openRequest(t, p, { text: 'b' });
  const closedFast = await openRequest(t, p, { text: 'c' });
  const closedSlow = await openRequest(t, p, { text: 'd' });
  const closedLong = await openRequest(t, p, { text: 'e' });
  await onlyAvailable(t, p, []);
  await openRequest(t, p, { text: 'waiting' }); // UNSERVED
  // SERVED by a bot (one that never answers: its intents are gone, so the message counts stay exact).
  const botServed = await openRequest(t, p, { text: 'bot' });
  const silent = await t.post(`/v3/${p.projectId}/bots`, { token: p.admin.token, body: { name: 'Silent', template: 'blank' } });
  const intents = await t.get(`/v3/${p.projectId}/faq?id_faq_kb=${silent.body._id}`, { token: p.admin.token });
  expect(intents.body.length).toBeGreaterThan(0);
  for (const intent of intents.body) await t.delete(`/v3/${p.projectId}/faq/${intent._id}`, { token: p.admin.token });
  await t.put(`/v3/${p.projectId}/requests/${botServed}/participants`, { token: p.owner.token, body: [`bot_${silent.body._id}`] });
  const old = await openRequest(t, p, { text: 'old' });

  const byId = (requestId: string) => ({ id_project_request_id: { id_project: p.projectId, request_id: requestId } });
  const now = Date.now();
  await db.request.update({ where: byId(served), data: { waiting_time: 1000 } });
  await db.request.update({ where: byId(rated), data: { waiting_time: 3000, rating: 5 } });
  await db.request.update({ where: byId(closedFast), data: { rating: 3, createdAt: new Date(now - 2 * day), waiting_time: 10_000 } });
  for (const [requestId, ms] of [
    [closedFast, 60_000],
    [closedSlow, 120_000],
    [closedLong, 600_000],
  ] as const) {
    await t.put(`/v3/${p.projectId}/requests/${requestId}/close`, { token: p.owner.token });
    const { createdAt } = await db.request.findUniqueOrThrow({ where: byId(requestId) });
    await db.request.update({ where: byId(requestId), data: { closed_at: new Date(createdAt.getTime() + ms) } });
  }
  // Outside the 30-day window: counted nowhere.
  await db.request.update({ where: byId(old), data: { createdAt: new Date(now - 40 * day), rating: 0, waiting_time: 99_000 } });
  await db.message.updateMany({ where: { id_project: p.projectId, request_id: old }, data: { createdAt: new Date(now - 40 * day) } });
});
afterAll(() => t.close());

const figure = (name: string, token = p.admin.token) => t.get(`/v3/${p.projectId}/analytics/${name}`, { token });

describe('request analytics', () => {
  it('averages the waiting time of the last 30 days, in milliseconds', async () => {
    const res = await figure('requests/waiting');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ average: (1000 + 3000 + 10_000) / 3, count: 3 });
  });

  it('averages the waiting time of the last day only', async () => {
    expect((await figure('requests/waiting/day/last')).body).toEqual({ average: 2000, count: 2 });
  });

  it('counts the conversations', async () => {
    expect((await figure('requests/count')).body).toEqual({ count: 7 });
  });

  it('counts conversations by status', async () => {
    expect((await figure('requests/aggregate/status')).body).toEqual({ assigned: 3, unassigned: 1, archived: 3 });
  });

  it('counts conversations per day, every day of the window listed', async () => {
    const res = await figure('requests/aggregate/day');
    expect(res.body).toHaveLength(30);
    expect(res.body[29]).toEqual({ date: today, count: 6 });
    expect(res.body[27]).toEqual({ date: new Date(Date.now() - 2 * day).toISOString().slice(0, 10), count: 1 });
    expect(res.body.reduce((n: number, d: { count: number }) => n + d.count, 0)).toBe(7);
  });

  it('counts conversations per week (starting Monday) and per month', async () => {
    const weeks = (await figure('requests/aggregate/week')).body as Array<{ week: string; count: number }>;
    expect(weeks.every((w) => new Date(`${w.week}T00:00:00Z`).getUTCDay() === 1)).toBe(true);
    expect(weeks.reduce((n, w) => n + w.count, 0)).toBe(7);
    const months = (await figure('requests/aggregate/month')).body as Array<{ month: string; count: number }>;
    expect(months.at(-1)!.month).toBe(today.slice(0, 7));
    expect(months.reduce((n, m) => n + m.count, 0)).toBe(7);
  });

  it('counts conversations by hour of the day', async () => {
    const hours = (await figure('requests/aggregate/hours')).body as Array<{ hour: number; count: number }>;
    expect(hours.map((h) => h.hour)).toEqual(Array.from({ length: 24 }, (_, i) => i));
    expect(hours.reduce((n, h) => n + h.count, 0)).toBe(7);
  });

  it('gives the average and median conversation length of closed conversations', async () => {
    expect((await figure('requests/duration')).body).toEqual({ average: 260_000, median: 120_000, count: 3 });
  });

  it('averages the ratings given', async () => {
    expect((await figure('requests/satisfaction')).body).toEqual({ average: 4, count: 2 });
  });

  it('counts conversations by hour of the week: 168 entries, a heat map', async () => {
    const cells = (await figure('requests/aggregate/hourOfWeek')).body as Array<{ weekday: number; hour: number; count: number }>;
    expect(cells).toHaveLength(168);
    expect(cells[0]).toMatchObject({ weekday: 0, hour: 0 });
    expect(cells[167]).toMatchObject({ weekday: 6, hour: 23 });
    expect(cells.reduce((n, c) => n + c.count, 0)).toBe(7);
    const now = new Date();
    const thisHour = cells.find((c) => c.weekday === now.getUTCDay() && c.hour === now.getUTCHours())!;
    expect(thisHour.count).toBeGreaterThanOrEqual(1);
  });

  it('counts the ratings given, each of 0 to 5 (CSAT)', async () => {
    expect((await figure('requests/satisfaction/distribution')).body).toEqual([
      { rating: 0, count: 0 },
      { rating: 1, count: 0 },
      { rating: 2, count: 0 },
      { rating: 3, count: 1 },
      { rating: 4, count: 0 },
      { rating: 5, count: 1 },
    ]);
  });

  it('gives the first response time per agent: the conversations each teammate answered first', async () => {
    expect((await figure('requests/firstResponse/agents')).body).toEqual([
      { id_user: p.agent.userId, fullname: 'agent Test', average: 1000, median: 1000, count: 1 },
    ]);
  });

  it('counts conversations a bot took part in', async () => {
    expect((await figure('requests/hasBot/count')).body).toEqual({ count: 1 });
  });
});

describe('message analytics', () => {
  it('counts messages sent (agents, bots) and received (visitors)', async () => {
    expect((await figure('messages/count')).body).toEqual({ count: 8, sent: 1, received: 7 });
  });

  it('counts messages per day', async () => {
    const res = await figure('messages/aggregate/day');
    expect(res.body).toHaveLength(30);
    expect(res.body[29]).toEqual({ date: today, count: 8 });
  });
});

describe('analytics access', () => {
  it('needs the admin role', async () => {
    expect((await figure('requests/count', p.agent.token)).status).toBe(403);
    expect((await figure('messages/count', p.guest.token)).status).toBe(403);
    for (const name of ['requests/aggregate/hourOfWeek', 'requests/satisfaction/distribution', 'requests/firstResponse/agents']) {
      expect((await figure(name, p.agent.token)).status).toBe(403);
    }
  });

  it('serves the same figures as GraphQL fields', async () => {
    const res = await t.gql(
      `query($p: String!) { analyticsRequestCount(project_id: $p) { count } analyticsRequestDuration(project_id: $p) { average median count } analyticsRequestsByHour(project_id: $p) { hour count } }`,
      { p: p.projectId },
      p.admin.token,
    );
    expect(res.body.data.analyticsRequestCount).toEqual({ count: 7 });
    expect(res.body.data.analyticsRequestDuration).toEqual({ average: 260_000, median: 120_000, count: 3 });
    expect(res.body.data.analyticsRequestsByHour).toHaveLength(24);
  });

  it('keeps other projects\' data out', async () => {
    const other = await t.seedProject('Other');
    expect((await t.get(`/v3/${other.projectId}/analytics/requests/count`, { token: other.admin.token })).body).toEqual({ count: 0 });
    expect((await t.get(`/v3/${other.projectId}/analytics/requests/firstResponse/agents`, { token: other.admin.token })).body).toEqual([]);
    expect((await t.get(`/v3/${p.projectId}/analytics/requests/firstResponse/agents`, { token: other.admin.token })).status).toBe(403);
  });

  it('serves the new figures as GraphQL fields too', async () => {
    const res = await t.gql(
      `query($p: String!) { analyticsFirstResponseByAgent(project_id: $p) { id_user average count }
        analyticsSatisfactionDistribution(project_id: $p) { rating count } analyticsRequestsByHourOfWeek(project_id: $p) { weekday hour count } }`,
      { p: p.projectId },
      p.admin.token,
    );
    expect(res.body.data.analyticsFirstResponseByAgent).toEqual([{ id_user: p.agent.userId, average: 1000, count: 1 }]);
    expect(res.body.data.analyticsSatisfactionDistribution).toHaveLength(6);
    expect(res.body.data.analyticsRequestsByHourOfWeek).toHaveLength(168);
  });
});
