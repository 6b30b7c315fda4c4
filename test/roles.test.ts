import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedTestApp, type SeededProject, type TestApp } from './helpers/app.js';

// The role table of the README for projects and teammates: each endpoint answers 403 to the
// role just below its minimum and lets the minimum through.

let t: TestApp;
let p: SeededProject;
beforeAll(async () => {
  t = await sharedTestApp();
  p = await t.seedProject();
});
afterAll(() => t.close());

type Role = 'guest' | 'user' | 'agent' | 'admin' | 'owner';
const below: Record<Role, Role | null> = { guest: null, user: 'guest', agent: 'user', admin: 'agent', owner: 'admin' };

const table: Array<{ method: string; path: string; min: Role; body?: () => unknown }> = [
  { method: 'GET', path: '/v3/projects/:p', min: 'agent' },
  { method: 'PUT', path: '/v3/projects/:p', min: 'admin', body: () => ({ settings: {} }) },
  { method: 'GET', path: '/v3/projects/:p/users/availables', min: 'user' },
  { method: 'PUT', path: '/v3/projects/:p/availables', min: 'user', body: () => ({ widget: { align: 'right' } }) },
  { method: 'GET', path: '/v3/:p/project_users', min: 'agent' },
  { method: 'GET', path: '/v3/:p/project_users/:owner', min: 'agent' },
  { method: 'GET', path: '/v3/:p/project_users/users/:ownerUser', min: 'agent' },
  { method: 'POST', path: '/v3/:p/project_users/invite', min: 'admin', body: () => ({ email: `r${Math.random()}@example.test`, role: 'agent' }) },
  { method: 'PUT', path: '/v3/:p/project_users', min: 'agent', body: () => ({ attributes: {} }) },
  { method: 'PUT', path: '/v3/:p/project_users/:agent', min: 'admin', body: () => ({ attributes: {} }) },
];

function fill(path: string) {
  return path
    .replace(':p', p.projectId)
    .replace(':ownerUser', p.owner.userId)
    .replace(':owner', p.owner.teammateId)
    .replace(':agent', p.agent.teammateId);
}

describe('minimum roles', () => {
  it.each(table.map((row) => [`${row.method} ${row.path}`, row] as const))('%s', async (_name, row) => {
    const call = (role: Role) => t.request(row.method, fill(row.path), { token: p[role].token, body: row.body?.() });
    const lower = below[row.min];
    if (lower) expect((await call(lower)).status).toBe(403);
    expect((await call(row.min)).status).toBe(200);
    expect((await t.request(row.method, fill(row.path), { body: row.body?.() })).status).toBe(401);
  });

  it('DELETE /v3/:project_id/project_users/:id needs admin', async () => {
    const q = await t.seedProject('Delete');
    expect((await t.delete(`/v3/${q.projectId}/project_users/${q.user.teammateId}`, { token: q.agent.token })).status).toBe(403);
    expect((await t.delete(`/v3/${q.projectId}/project_users/${q.user.teammateId}`, { token: q.admin.token })).status).toBe(200);
  });

  it('GET /v3/projects needs role user: 401 without credentials, 403 for an anonymous visitor', async () => {
    expect((await t.get('/v3/projects')).status).toBe(401);
    expect((await t.get('/v3/projects', { token: p.guest.token })).status).toBe(403);
    expect((await t.get('/v3/projects', { token: p.user.token })).status).toBe(200);
  });
});
