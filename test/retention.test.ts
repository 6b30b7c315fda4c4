import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedTestApp, type SeededProject, type TestApp } from './helpers/app.js';
import { openRequest } from './helpers/conversations.js';

let t: TestApp;
let p: SeededProject;
let other: SeededProject;

beforeAll(async () => {
  t = await sharedTestApp();
  p = await t.seedProject('Retained');
  other = await t.seedProject('Elsewhere');
});
afterAll(() => t.close());

const db = () => t.infra.database.prisma;

/** A conversation closed `daysAgo` days ago. */
async function closedConversation(project: SeededProject, daysAgo: number) {
  const requestId = await openRequest(t, project);
  expect((await t.put(`/v3/${project.projectId}/requests/${requestId}/close`, { token: project.admin.token })).status).toBe(200);
  await db().request.update({
    where: { id_project_request_id: { id_project: project.projectId, request_id: requestId } },
    data: { closed_at: new Date(Date.now() - daysAgo * 86_400_000) },
  });
  return requestId;
}

const exists = async (project: SeededProject, requestId: string) =>
  (await db().request.count({ where: { id_project: project.projectId, request_id: requestId } })) > 0;

describe('retention_days', () => {
  it('is set by an admin and shown on the project', async () => {
    const res = await t.put(`/v3/projects/${p.projectId}`, { token: p.admin.token, body: { retention_days: 30 } });
    expect(res.status).toBe(200);
    expect(res.body.retention_days).toBe(30);
  });

  it('is refused to agents with 403, unchanged', async () => {
    expect((await t.put(`/v3/projects/${p.projectId}`, { token: p.agent.token, body: { retention_days: 1 } })).status).toBe(403);
    expect((await db().project.findUnique({ where: { id: p.projectId } }))!.retention_days).toBe(30);
  });

  it('answers 400 naming retention_days for a negative or fractional value, unchanged', async () => {
    for (const value of [-1, 1.5]) {
      const res = await t.put(`/v3/projects/${p.projectId}`, { token: p.admin.token, body: { retention_days: value } });
      expect(res.status).toBe(400);
      expect(res.body.field).toBe('retention_days');
    }
    expect((await db().project.findUnique({ where: { id: p.projectId } }))!.retention_days).toBe(30);
  });
});

describe('the retention sweep', () => {
  it('removes closed conversations older than the policy with their messages, and keeps the rest', async () => {
    await t.put(`/v3/projects/${p.projectId}`, { token: p.admin.token, body: { retention_days: 30 } });
    const old = await closedConversation(p, 40);
    const recent = await closedConversation(p, 10);
    const open = await openRequest(t, p);
    await db().request.update({ where: { id_project_request_id: { id_project: p.projectId, request_id: open } }, data: { createdAt: new Date(Date.now() - 90 * 86_400_000) } });
    const progress = await t.services.retention.sweep();
    expect(progress.find((x) => x.projectId === p.projectId)).toMatchObject({ requests: 1, batches: 1 });
    expect(await exists(p, old)).toBe(false);
    expect(await db().message.count({ where: { id_project: p.projectId, request_id: old } })).toBe(0);
    expect(await exists(p, recent)).toBe(true);
    expect(await exists(p, open)).toBe(true);
  });

  it('reports its progress in the audit log, as the system', async () => {
    await closedConversation(p, 45);
    await t.services.retention.sweep();
    const audit = await t.get(`/v3/${p.projectId}/audit?action=retention.purge`, { token: p.admin.token });
    expect(audit.body[0]).toMatchObject({ actor: { kind: 'system' }, details: { requests: 1 } });
  });

  it('leaves projects without a policy, and other projects, alone', async () => {
    const theirs = await closedConversation(other, 400);
    await t.services.retention.sweep();
    expect(await exists(other, theirs)).toBe(true);
  });

  it('resumes where it stopped: a run over a project with nothing left changes nothing', async () => {
    const a = await closedConversation(p, 50);
    const b = await closedConversation(p, 60);
    // Two runs at once (two nodes, or a run resumed beside one still finishing): each conversation goes once.
    const [one, two] = await Promise.all([t.services.retention.sweep(), t.services.retention.sweep()]);
    const removed = [...one, ...two].filter((x) => x.projectId === p.projectId).reduce((n, x) => n + x.requests, 0);
    expect(removed).toBe(2);
    expect(await exists(p, a)).toBe(false);
    expect(await exists(p, b)).toBe(false);
    expect((await t.services.retention.sweep()).find((x) => x.projectId === p.projectId)).toBeUndefined();
  });
});
