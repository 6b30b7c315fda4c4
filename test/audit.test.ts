import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedTestApp, type SeededProject, type TestApp } from './helpers/app.js';

let t: TestApp;
let p: SeededProject;
let other: SeededProject;

beforeAll(async () => {
  t = await sharedTestApp();
  p = await t.seedProject('Audited');
  other = await t.seedProject('Elsewhere');
});
afterAll(() => t.close());

const audit = (query = '', token = p.admin.token, projectId = p.projectId) => t.get(`/v3/${projectId}/audit${query}`, { token });

describe('what the audit log records', () => {
  it('records a settings change with who, from where, and the fields before and after', async () => {
    const before = (await t.get(`/v3/projects/${p.projectId}`, { token: p.owner.token })).body.name;
    const res = await t.put(`/v3/projects/${p.projectId}`, { token: p.admin.token, body: { name: 'Audited Inc' } });
    expect(res.status).toBe(200);
    const list = await audit(`?action=project.update&target=${p.projectId}`);
    expect(list.status).toBe(200);
    expect(list.body[0]).toMatchObject({
      action: 'project.update',
      target: p.projectId,
      targetType: 'project',
      actor: { kind: 'account', id: p.admin.userId, name: p.admin.email },
      before: { name: before },
      after: { name: 'Audited Inc' },
    });
    expect(list.body[0].address).toMatch(/127\.0\.0\.1|::1/);
  });

  it('records a role change with the role before and after', async () => {
    const res = await t.put(`/v3/${p.projectId}/project_users/${p.user.teammateId}`, { token: p.owner.token, body: { role: 'agent' } });
    expect(res.status).toBe(200);
    const list = await audit(`?action=project_user.update&target=${p.user.teammateId}`);
    expect(list.body[0]).toMatchObject({ actor: { kind: 'account', id: p.owner.userId }, before: { role: 'user' }, after: { role: 'agent' } });
    await t.put(`/v3/${p.projectId}/project_users/${p.user.teammateId}`, { token: p.owner.token, body: { role: 'user' } });
  });

  it('records a key created and revoked, and the key itself as the actor of what it does, without its secret', async () => {
    const created = await t.post(`/v3/${p.projectId}/api_keys`, { token: p.admin.token, body: { name: 'CRM', role: 'admin' } });
    expect(created.status).toBe(200);
    const byKey = await t.post(`/v3/${p.projectId}/tags`, { token: `Bearer ${created.body.key}`, body: { tag: 'from-key' } });
    expect(byKey.status).toBe(200);
    expect((await t.delete(`/v3/${p.projectId}/tags/${byKey.body._id}`, { token: `Bearer ${created.body.key}` })).status).toBe(200);
    expect((await t.delete(`/v3/${p.projectId}/api_keys/${created.body._id}`, { token: p.admin.token })).status).toBe(200);

    const keyEntries = await audit(`?target=${created.body._id}&direction=1`);
    expect(keyEntries.body.map((e: { action: string }) => e.action)).toEqual(['api_key.create', 'api_key.revoke']);
    const deletion = await audit(`?action=tag.delete&target=${byKey.body._id}`);
    expect(deletion.body[0].actor).toMatchObject({ kind: 'api_key', id: created.body._id });
    expect(JSON.stringify((await audit('?limit=100')).body)).not.toContain(created.body.key);
  });

  it('records a webhook subscription changed, with its target before and after', async () => {
    // The target must be a public address for the SSRF guard; creating it as the service is setup.
    const created = await t.post(`/v3/${p.projectId}/subscriptions`, { token: p.admin.token, body: { event: 'request.create', target: 'https://hooks.example.com/a' } });
    if (created.status !== 200) return expect.fail(`subscription setup: ${JSON.stringify(created.body)}`);
    const updated = await t.put(`/v3/${p.projectId}/subscriptions/${created.body._id}`, { token: p.admin.token, body: { event: 'request.close' } });
    expect(updated.status).toBe(200);
    const list = await audit(`?target=${created.body._id}&action=subscription.update`);
    expect(list.body[0]).toMatchObject({ before: { event: 'request.create' }, after: { event: 'request.close' } });
    expect(JSON.stringify(list.body)).not.toContain(created.body.secret);
  });
});

describe('reading the audit log', () => {
  it('filters by actor, by several actions and by time range', async () => {
    await t.post(`/v3/${p.projectId}/tags`, { token: p.agent.token, body: { tag: 'filtered' } }).then((r) => t.delete(`/v3/${p.projectId}/tags/${r.body._id}`, { token: p.agent.token }));
    const mine = await audit(`?actor=${p.agent.userId}`);
    expect(mine.body.length).toBeGreaterThan(0);
    expect(mine.body.every((e: { actor: { id: string } }) => e.actor.id === p.agent.userId)).toBe(true);
    const two = await audit('?action=tag.delete,project.update&limit=100');
    expect(new Set(two.body.map((e: { action: string }) => e.action))).toEqual(new Set(['tag.delete', 'project.update']));
    const future = await audit(`?from=${new Date(Date.now() + 3_600_000).toISOString()}`);
    expect(future.body).toEqual([]);
  });

  it('pages like the other lists, and counts the matches', async () => {
    const count = await audit('/count');
    expect(count.status).toBe(200);
    expect(count.body).toBeGreaterThanOrEqual(4);
    const first = await audit('?limit=2&page=0');
    const second = await audit('?limit=2&page=1');
    expect(first.body).toHaveLength(2);
    expect(second.body[0].id).not.toBe(first.body[0].id);
    expect(second.body[0].id).not.toBe(first.body[1].id);
  });

  it('is served over GraphQL with the same filters', async () => {
    const res = await t.gql(
      `query($p: String!) { audit(project_id: $p, action: ["project.update"]) { action target actor { kind id } before after address createdAt } }`,
      { p: p.projectId },
      p.admin.token,
    );
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.audit[0]).toMatchObject({ action: 'project.update', target: p.projectId, actor: { kind: 'account' } });
  });
});

describe('who may read it', () => {
  it('refuses agents and guests with 403', async () => {
    expect((await audit('', p.agent.token)).status).toBe(403);
    expect((await audit('', p.guest.token)).status).toBe(403);
    const gql = await t.gql(`query($p: String!) { audit(project_id: $p) { id } }`, { p: p.projectId }, p.agent.token);
    expect(gql.body.errors?.[0].extensions?.code).toBe('FORBIDDEN');
  });

  it('refuses callers without credentials with 401', async () => {
    expect((await t.get(`/v3/${p.projectId}/audit`)).status).toBe(401);
  });

  it('never shows another project\'s entries, and refuses its admins', async () => {
    await t.put(`/v3/projects/${other.projectId}`, { token: other.owner.token, body: { name: 'Other renamed' } });
    expect((await audit('', other.admin.token)).status).toBe(403);
    const mine = await audit('?limit=100');
    expect(mine.body.every((e: { id_project: string }) => e.id_project === p.projectId)).toBe(true);
    const theirs = await audit(`?target=${other.projectId}`, other.admin.token, other.projectId);
    expect(theirs.body.every((e: { id_project: string }) => e.id_project === other.projectId)).toBe(true);
    expect(theirs.body.length).toBeGreaterThan(0);
  });
});

describe('nothing changes it', () => {
  it('has no route that changes or deletes an entry', async () => {
    const [entry] = (await audit('?limit=1')).body;
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
      const res = await t.request(method, `/v3/${p.projectId}/audit/${entry.id}`, { token: p.owner.token, body: {} });
      expect([404, 405]).toContain(res.status);
      const all = await t.request(method, `/v3/${p.projectId}/audit`, { token: p.owner.token, body: {} });
      expect([404, 405]).toContain(all.status);
    }
    expect((await audit(`?target=${entry.target}&limit=100`)).body.some((e: { id: string }) => e.id === entry.id)).toBe(true);
  });

  it('has no GraphQL mutation over entries', async () => {
    const res = await t.gql(`{ __schema { mutationType { fields { name } } } }`, {}, p.owner.token);
    const names = (res.body.data?.__schema.mutationType.fields ?? []).map((f: { name: string }) => f.name);
    expect(names.filter((n: string) => /audit/i.test(n))).toEqual([]);
  });
});

describe('bad input', () => {
  it('answers 400 naming a time that is no date', async () => {
    const res = await audit('?from=yesterday');
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'BAD_USER_INPUT', field: 'from' });
    expect(res.body.request_id).toBeTruthy();
  });

  it('answers 400 for a range that ends before it starts', async () => {
    const res = await audit('?from=2026-02-01T00:00:00Z&to=2026-01-01T00:00:00Z');
    expect(res.status).toBe(400);
    expect(res.body.field).toBe('from');
  });

  it('answers 400 for an unknown actor kind and a page size over the limit', async () => {
    expect((await audit('?actorKind=robot')).body.field).toBe('actorKind');
    expect((await audit('?limit=1000')).body.field).toBe('limit');
  });
});

describe('retention', () => {
  it('removes entries older than AUDIT_RETENTION_DAYS and keeps the rest', async () => {
    const db = t.infra.database.prisma;
    const old = await db.auditEntry.create({
      data: { id_project: p.projectId, action: 'tag.delete', target: 'old-tag', targetType: 'tag', actorKind: 'system', createdAt: new Date(Date.now() - 400 * 86_400_000) },
    });
    const recent = await db.auditEntry.create({
      data: { id_project: p.projectId, action: 'tag.delete', target: 'recent-tag', targetType: 'tag', actorKind: 'system', createdAt: new Date(Date.now() - 300 * 86_400_000) },
    });
    const removed = await t.services.audit.removeExpired();
    expect(removed).toBeGreaterThanOrEqual(1);
    expect(await db.auditEntry.findUnique({ where: { id: old.id } })).toBeNull();
    expect(await db.auditEntry.findUnique({ where: { id: recent.id } })).not.toBeNull();
  });
});
