import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createTestServer, type SeededProject, type TestApp } from './helpers/app.js';
import { eventually } from './helpers/conversations.js';
import { productionMode } from './helpers/environment.js';

// Project API keys: `Authorization: Bearer <key>` acts as a member of the key's role in its
// project only, on REST and GraphQL; revoked keys stop at once, on every node.

let t: TestApp;
let p: SeededProject;
let other: SeededProject;
beforeAll(async () => {
  t = await createTestApp();
  [p, other] = [await t.seedProject('Acme'), await t.seedProject('Other')];
});
afterAll(() => t.close());

const createKey = async (role: 'agent' | 'admin', name = `CRM ${role}`, projectId = p.projectId, token = p.admin.token) => {
  const res = await t.post(`/v3/${projectId}/api_keys`, { token, body: { name, role } });
  expect(res.status).toBe(200);
  return res.body as { _id: string; key: string; name: string; role: string };
};
const bearer = (key: string) => `Bearer ${key}`;

describe('creating and listing keys', () => {
  it('shows the key once, at creation, and lists name, role, creation and last use without it', async () => {
    const created = await createKey('agent', 'Listed');
    expect(created.key).toMatch(/^spk_/);
    await t.get(`/v3/projects/${p.projectId}`, { token: bearer(created.key) });
    const listed = await eventually(async () => {
      const list = await t.get(`/v3/${p.projectId}/api_keys`, { token: p.admin.token });
      const entry = list.body.find((k: any) => k._id === created._id);
      return entry?.lastUsedAt ? entry : null;
    });
    expect(listed).toMatchObject({ name: 'Listed', role: 'agent', key: null });
    expect(listed.createdAt).toBeTruthy();
    expect(JSON.stringify(await t.get(`/v3/${p.projectId}/api_keys`, { token: p.admin.token }))).not.toContain(created.key);
  });

  it('stores only a hash of the key', async () => {
    const created = await createKey('agent', 'Hashed');
    const row = await t.infra.database.prisma.apiKey.findUniqueOrThrow({ where: { id: created._id } });
    // The secret is all that follows the key's id (it may hold '_' itself: base64url).
    const secret = created.key.slice(created.key.indexOf(created._id) + created._id.length + 1);
    expect(secret.length).toBeGreaterThanOrEqual(43);
    expect(JSON.stringify(row)).not.toContain(secret);
  });

  it('lets only admins create keys (an agent gets 403)', async () => {
    const res = await t.post(`/v3/${p.projectId}/api_keys`, { token: p.agent.token, body: { name: 'mine', role: 'agent' } });
    expect(res.status).toBe(403);
  });

  it('answers 400 naming `role` for a role other than agent or admin', async () => {
    const res = await t.post(`/v3/${p.projectId}/api_keys`, { token: p.admin.token, body: { name: 'owner key', role: 'owner' } });
    expect(res.status).toBe(400);
    expect(res.body.field).toBe('role');
  });

  it('creates keys through GraphQL too', async () => {
    const res = await t.gql(`mutation($p: String!) { createApiKey(project_id: $p, name: "gql", role: "agent") { key role } }`, { p: p.projectId }, p.admin.token);
    expect(res.body.data?.createApiKey).toMatchObject({ role: 'agent', key: expect.stringMatching(/^spk_/) });
  });
});

describe('using a key', () => {
  it('works on its project through REST and GraphQL', async () => {
    const { key } = await createKey('agent');
    expect((await t.get(`/v3/projects/${p.projectId}`, { token: bearer(key) })).status).toBe(200);
    const res = await t.gql(`query($p: String!) { tags(project_id: $p) { tag } }`, { p: p.projectId }, bearer(key));
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.tags).toBeInstanceOf(Array);
  });

  it('reaches nothing of another project (403)', async () => {
    const { key } = await createKey('admin');
    expect((await t.get(`/v3/projects/${other.projectId}`, { token: bearer(key) })).status).toBe(403);
    expect((await t.get(`/v3/${other.projectId}/tags`, { token: bearer(key) })).status).toBe(403);
    const res = await t.gql(`query($p: String!) { tags(project_id: $p) { tag } }`, { p: other.projectId }, bearer(key));
    expect(res.body.errors?.[0].extensions?.code).toBe('FORBIDDEN');
  });

  it('records the key as the author of its writes', async () => {
    const created = await createKey('agent', 'Author');
    const tag = await t.post(`/v3/${p.projectId}/tags`, { token: bearer(created.key), body: { tag: `from-crm-${Date.now()}` } });
    expect(tag.status).toBe(200);
    expect(tag.body.createdBy).toBe(`apikey_${created._id}`);
  });

  it('keeps an agent key from admin work (403), and lets an admin key do it', async () => {
    const agentKey = (await createKey('agent')).key;
    const adminKey = (await createKey('admin')).key;
    const invite = (key: string) => t.post(`/v3/${p.projectId}/project_users/invite`, { token: bearer(key), body: { email: `k${Math.random()}@example.test`, role: 'agent' } });
    expect((await invite(agentKey)).status).toBe(403);
    expect((await invite(adminKey)).status).toBe(200);
  });

  it('cannot create or revoke keys, even as admin (403)', async () => {
    const adminKey = (await createKey('admin')).key;
    expect((await t.post(`/v3/${p.projectId}/api_keys`, { token: bearer(adminKey), body: { name: 'minted', role: 'admin' } })).status).toBe(403);
  });

  it('answers 401 for a made-up key', async () => {
    const { key } = await createKey('agent');
    const forged = `${key.slice(0, -4)}AAAA`;
    expect((await t.get(`/v3/projects/${p.projectId}`, { token: bearer(forged) })).status).toBe(401);
    expect((await t.get(`/v3/projects/${p.projectId}`, { token: bearer('spk_nonsense') })).status).toBe(401);
  });

  it('answers 401 once revoked, and the key leaves the list', async () => {
    const created = await createKey('agent', 'Revoked');
    expect((await t.get(`/v3/projects/${p.projectId}`, { token: bearer(created.key) })).status).toBe(200);
    expect((await t.delete(`/v3/${p.projectId}/api_keys/${created._id}`, { token: p.admin.token })).status).toBe(200);
    expect((await t.get(`/v3/projects/${p.projectId}`, { token: bearer(created.key) })).status).toBe(401);
    const list = await t.get(`/v3/${p.projectId}/api_keys`, { token: p.admin.token });
    expect(list.body.map((k: any) => k._id)).not.toContain(created._id);
  });

  it('cannot be revoked through another project (404)', async () => {
    const created = await createKey('agent');
    expect((await t.delete(`/v3/${other.projectId}/api_keys/${created._id}`, { token: other.admin.token })).status).toBe(404);
    expect((await t.get(`/v3/projects/${p.projectId}`, { token: bearer(created.key) })).status).toBe(200);
  });
});

describe.skipIf(!productionMode)('two nodes', () => {
  it('answer 401 on the other node within a second of a revocation', async () => {
    // Cached keys live long enough here that only the bus's message can explain the 401.
    const first = await createTestServer({ AUTH_CACHE_MS: '600000' });
    const second = await createTestServer({ AUTH_CACHE_MS: '600000' }, { databaseUrl: first.config.databaseUrl, prefix: first.config.redisPrefix });
    try {
      const q = await first.client.seedProject('Clustered');
      const created = (await first.client.post(`/v3/${q.projectId}/api_keys`, { token: q.admin.token, body: { name: 'CRM', role: 'agent' } })).body;
      const onB = () => second.client.get(`/v3/projects/${q.projectId}`, { token: bearer(created.key) });
      expect((await onB()).status).toBe(200);
      expect((await first.client.delete(`/v3/${q.projectId}/api_keys/${created._id}`, { token: q.admin.token })).status).toBe(200);
      const revokedAt = Date.now();
      await eventually(async () => (await onB()).status === 401, 1000);
      expect(Date.now() - revokedAt).toBeLessThan(1000);
    } finally {
      await second.client.close();
      await first.client.close();
    }
  });
});
