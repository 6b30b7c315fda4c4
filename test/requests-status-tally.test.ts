import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedTestApp, type SeededProject, type TestApp } from './helpers/app.js';
import { eventually, openRequest, send } from './helpers/conversations.js';

// The inbox's counts by status (All open, Closed, every status), answered from the tally kept per
// project and status by triggers on "Request" (migration 20261129150000_request_status_tally),
// are always what counting the requests says, whichever way the requests were written.

let t: TestApp;
let p: SeededProject;

beforeAll(async () => {
  t = await sharedTestApp();
  p = await t.seedProject('Status tally');
});
afterAll(() => t.close());

/** The counts a client reads in each view, beside a count of the project's requests. */
async function viewsAndRecount(projectId = p.projectId, token = p.admin.token) {
  const views: Record<string, number> = {};
  for (const status of ['100,200', '1000', 'all', '100', '200', '50,150']) {
    const res = await t.get(`/v3/${projectId}/requests?status=${status}&limit=1`, { token });
    expect(res.status).toBe(200);
    views[status] = res.body.count as number;
  }
  const open = await t.get(`/v3/${projectId}/requests?limit=1`, { token });
  views.default = open.body.count as number;
  const rows = await t.infra.database.prisma.request.groupBy({ by: ['status'], where: { id_project: projectId }, _count: true });
  const of = (statuses: number[]) => rows.filter((r) => statuses.includes(r.status)).reduce((sum, r) => sum + r._count, 0);
  const recount = {
    '100,200': of([100, 200]),
    '1000': of([1000]),
    all: of(rows.map((r) => r.status)),
    '100': of([100]),
    '200': of([200]),
    '50,150': of([50, 150]),
    default: of(rows.map((r) => r.status).filter((s) => s < 1000)),
  };
  return { views, recount };
}

const close = (requestId: string) => t.put(`/v3/${p.projectId}/requests/${requestId}/close`, { token: p.admin.token });

describe('the inbox counts by status', () => {
  it('count what a client sees opened, answered, closed and reopened', async () => {
    const before = await viewsAndRecount();
    const [a, b, c] = [await openRequest(t, p), await openRequest(t, p), await openRequest(t, p)];
    expect((await send(t, p.projectId, p.admin.token, b, { text: 'an answer' })).status).toBe(200);
    expect((await close(c)).status).toBe(200);
    expect((await t.put(`/v3/${p.projectId}/requests/${c}/reopen`, { token: p.admin.token })).status).toBe(200);
    expect((await close(a)).status).toBe(200);
    const after = await viewsAndRecount();
    expect(after.views).toEqual(after.recount);
    expect(after.views.all - before.views.all).toBe(3);
    expect(after.views['1000'] - before.views['1000']).toBe(1);
  });

  it('equal a recount after many closes at once, each on its own connection', async () => {
    const ids = await Promise.all(Array.from({ length: 12 }, () => openRequest(t, p)));
    const answers = await Promise.all(ids.map(close));
    expect(answers.map((r) => r.status)).toEqual(ids.map(() => 200));
    const { views, recount } = await viewsAndRecount();
    expect(views).toEqual(recount);
  });

  it('equal a recount after a merge and a deletion', async () => {
    const [into, from, gone] = [await openRequest(t, p), await openRequest(t, p), await openRequest(t, p)];
    expect((await t.post(`/v3/${p.projectId}/requests/${into}/merge`, { token: p.admin.token, body: { from: [from] } })).status).toBe(200);
    expect((await t.delete(`/v3/${p.projectId}/requests/${gone}`, { token: p.owner.token })).status).toBe(200);
    const { views, recount } = await viewsAndRecount();
    expect(views).toEqual(recount);
  });

  it('are each project\'s own', async () => {
    const other = await t.seedProject('Status tally, another');
    await openRequest(t, other);
    const { views, recount } = await viewsAndRecount(other.projectId, other.admin.token);
    expect(views).toEqual(recount);
    expect(views.all).toBe(1);
  });

  it('leave nothing behind when the project is deleted', async () => {
    const gone = await t.seedProject('Status tally, deleted');
    for (let i = 0; i < 3; i++) await openRequest(t, gone);
    expect((await t.delete(`/v3/projects/${gone.projectId}`, { token: gone.owner.token })).status).toBe(200);
    // The project's data goes with its purge, which follows the deletion's answer (the project row last).
    await eventually(async () => (await t.infra.database.prisma.project.count({ where: { id: gone.projectId } })) === 0);
    expect(await t.infra.database.prisma.requestStatusTally.count({ where: { id_project: gone.projectId } })).toBe(0);
  });
});
