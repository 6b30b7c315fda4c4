import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { restRoutes } from '../src/graphql/schema.js';
import { sharedTestApp, type SeededProject, type TestApp } from './helpers/app.js';

// Replays every REST operation of project A with project B's credentials and ids.
// Generic over the route table, so every resource added later is covered as well.

let t: TestApp;
let a: SeededProject;
let b: SeededProject;

/** Routes anyone may call: they expose nothing private. */
const publicRoutes = new Set(['GET /projects/:project_id/isopen', 'GET /:project_id/widgets', 'GET /:project_id/labels/default', 'GET /:project_id/labels/default/:lang']);

const routes = Object.values(restRoutes).filter((r) => r.path.includes(':project_id'));

function fill(path: string, values: Record<string, string>) {
  return '/v3' + path.replace(/:(\w+)/g, (_m, name: string) => values[name] ?? 'nonexistent-id');
}

/** A's own records, found by listing each collection as A's owner: `/x/:id` routes get the first id of `/x`. */
async function recordIdsOfA(): Promise<Map<string, string>> {
  const ids = new Map<string, string>();
  for (const route of routes) {
    if (route.method !== 'GET' || /:(?!project_id)\w+/.test(route.path)) continue;
    const res = await t.get(fill(route.path, { project_id: a.projectId }), { token: a.owner.token });
    const list = Array.isArray(res.body) ? res.body : Object.values(res.body ?? {}).find(Array.isArray);
    const first = (list as Array<{ _id?: string }> | undefined)?.find((r) => r && typeof r._id === 'string');
    if (first?._id) ids.set(route.path, first._id);
  }
  return ids;
}

beforeAll(async () => {
  t = await sharedTestApp();
  a = await t.seedProject('A');
  b = await t.seedProject('B');
});
afterAll(() => t.close());

describe('cross-project isolation', () => {
  it.each(routes.map((r) => [`${r.method} ${r.path}`, r] as const))(
    '%s refuses project B\'s owner on project A',
    async (key, route) => {
      if (publicRoutes.has(key)) return;
      const res = await t.request(route.method, fill(route.path, { project_id: a.projectId, user_id: a.agent.userId, project_user_id: a.agent.teammateId }), {
        token: b.owner.token,
        body: route.method === 'GET' || route.method === 'DELETE' ? undefined : {},
      });
      expect(res.status).toBe(403);
    },
  );

  it('never reads, changes or deletes A\'s records through B\'s project id', async () => {
    const ids = await recordIdsOfA();
    ids.set('/:project_id/project_users', a.agent.teammateId);
    const attempts: string[] = [];
    for (const route of routes) {
      const param = /\/:(?!project_id)(\w+)$/.exec(route.path)?.[1];
      if (!param) continue;
      const collection = route.path.slice(0, route.path.lastIndexOf('/'));
      const recordId = ids.get(collection);
      if (!recordId) continue;
      const before = await t.get(fill(`${collection}/:${param}`, { project_id: a.projectId, [param]: recordId }), { token: a.owner.token });
      const res = await t.request(route.method, fill(route.path, { project_id: b.projectId, [param]: recordId }), {
        token: b.owner.token,
        body: route.method === 'GET' || route.method === 'DELETE' ? undefined : { name: 'hijacked' },
      });
      attempts.push(`${route.method} ${route.path}`);
      expect([400, 403, 404], `${route.method} ${route.path} answered ${res.status}`).toContain(res.status);
      const after = await t.get(fill(`${collection}/:${param}`, { project_id: a.projectId, [param]: recordId }), { token: a.owner.token });
      expect(after.body, `${route.method} ${route.path} changed A's record`).toEqual(before.body);
    }
    expect(attempts.length).toBeGreaterThan(0);
  });

  it('lists only the caller\'s own projects', async () => {
    const res = await t.get('/v3/projects', { token: b.owner.token });
    expect(res.body.map((m: { id_project: { _id: string } }) => m.id_project._id)).toEqual([b.projectId]);
  });

  it('does not let a guest of A act in B', async () => {
    const res = await t.get(`/v3/projects/${b.projectId}/users/availables`, { token: a.guest.token });
    expect(res.status).toBe(403);
  });
});
