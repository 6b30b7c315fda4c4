import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, type SeededProject, type TestApp } from './helpers/app.js';
import { eventually, openRequest, send } from './helpers/conversations.js';
import { errorCodes, rawSocket, type RawSocket } from './helpers/raw-socket.js';

// The spec's States that take effect: a teammate `active` or `disabled`, a project 100 (active) or
// 0 (disabled), and a project deleted by its owner. Cached lookups live for ten minutes here, so
// only the change itself can explain a refusal.

let t: TestApp;
let url: string;
const closers: Array<() => unknown> = [];

beforeAll(async () => {
  const started = await createTestServer({ AUTH_CACHE_MS: '600000', PROJECT_CACHE_MS: '600000' });
  t = started.client;
  url = started.server.url;
});
afterAll(async () => {
  for (const close of closers) await close();
  await t.close();
});

const isEnd = (m: { id?: string; type: string; payload?: any }) => m.id === 'events' && (m.type === 'error' || !!m.payload?.errors);

/** A live `projectEvents` subscription of `token` (it delivered an event). */
async function liveSocket(p: SeededProject, token: string): Promise<RawSocket> {
  const socket = await rawSocket(url, token);
  closers.push(() => socket.close());
  socket.subscribe('events', 'subscription($p: String!) { projectEvents(project_id: $p) { seq } }', { p: p.projectId });
  const pokes: Promise<unknown>[] = [];
  const poke = setInterval(() => pokes.push(t.put(`/v3/${p.projectId}/project_users/`, { token: p.owner.token, body: { attributes: { at: Date.now() } } })), 50);
  await socket.waitFor((m) => m.id === 'events' && m.type === 'next').finally(() => clearInterval(poke));
  await Promise.all(pokes);
  return socket;
}

describe('teammate status', () => {
  let p: SeededProject;
  beforeAll(async () => {
    p = await t.seedProject('Teammate status');
  });
  const teammatePath = (id: string) => `/v3/${p.projectId}/project_users/${id}`;

  it('disables a teammate: they keep their record, cannot act in the project, and their live subscriptions end', async () => {
    const socket = await liveSocket(p, p.agent.token);
    const res = await t.put(teammatePath(p.agent.teammateId), { token: p.admin.token, body: { status: 'disabled' } });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('disabled');
    expect(errorCodes(await socket.waitFor(isEnd, 1000))).toEqual(['FORBIDDEN']);
    expect((await t.get(`/v3/${p.projectId}/requests`, { token: p.agent.token })).status).toBe(403);
    const listed = await t.get(`/v3/${p.projectId}/project_users`, { token: p.admin.token });
    expect(listed.body.find((m: { _id: string }) => m._id === p.agent.teammateId)).toMatchObject({ status: 'disabled' });
    expect((await t.get('/v3/projects', { token: p.agent.token })).body.map((m: any) => m.id_project._id)).not.toContain(p.projectId);

    const enabled = await t.put(teammatePath(p.agent.teammateId), { token: p.admin.token, body: { status: 'active' } });
    expect(enabled.body.status).toBe('active');
    expect((await t.get(`/v3/${p.projectId}/requests`, { token: p.agent.token })).status).toBe(200);
  });

  it('does not route requests to a disabled teammate', async () => {
    const { projectId } = p;
    // Only the agent is available; disabled, nobody serves the next request.
    for (const member of [p.owner, p.admin, p.user]) {
      await t.put(`/v3/${projectId}/project_users/${member.teammateId}`, { token: p.owner.token, body: { user_available: false } });
    }
    await t.put(teammatePath(p.agent.teammateId), { token: p.admin.token, body: { user_available: true, status: 'disabled' } });
    const available = await t.get(`/v3/projects/${projectId}/users/availables`, { token: p.owner.token });
    expect(available.body.map((a: { id: string }) => a.id)).not.toContain(p.agent.userId);
    const requestId = await openRequest(t, p);
    const request = await t.get(`/v3/${projectId}/requests/${requestId}`, { token: p.owner.token });
    expect(request.body.participants ?? []).not.toContain(p.agent.userId);
    await t.put(teammatePath(p.agent.teammateId), { token: p.admin.token, body: { status: 'active' } });
    const routed = await openRequest(t, p);
    await eventually(async () => (await t.get(`/v3/${projectId}/requests/${routed}`, { token: p.owner.token })).body.participants?.includes(p.agent.userId));
  });

  it('refuses to disable the owner (409), oneself (400) and a status that is neither (400 naming status)', async () => {
    expect((await t.put(teammatePath(p.owner.teammateId), { token: p.owner.token, body: { status: 'disabled' } })).status).toBe(409);
    const self = await t.put(teammatePath(p.admin.teammateId), { token: p.admin.token, body: { status: 'disabled' } });
    expect(self.status).toBe(400);
    const wrong = await t.put(teammatePath(p.agent.teammateId), { token: p.admin.token, body: { status: 'sleeping' } });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toMatchObject({ field: 'status', request_id: expect.any(String) });
  });

  it('lets only admins change a status (an agent gets 403)', async () => {
    const res = await t.put(teammatePath(p.user.teammateId), { token: p.agent.token, body: { status: 'disabled' } });
    expect(res.status).toBe(403);
  });
});

describe('project status', () => {
  let p: SeededProject;
  beforeAll(async () => {
    p = await t.seedProject('Project status');
  });
  const projectPath = () => `/v3/projects/${p.projectId}`;

  it('disabled (0), refuses members, visitors and API keys, ends live subscriptions; the owner reads it and enables it again', async () => {
    const key = await t.post(`/v3/${p.projectId}/api_keys`, { token: p.owner.token, body: { name: 'ci', role: 'agent' } });
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(Buffer.from('%PDF-1.4\n%%EOF'))], { type: 'application/pdf' }), 'kept.pdf');
    const file = (await t.post(`/v3/${p.projectId}/files`, { token: p.guest.token, body: form })).body.filename as string;
    const socket = await liveSocket(p, p.agent.token);
    const disabled = await t.put(projectPath(), { token: p.owner.token, body: { status: 0 } });
    expect(disabled.status).toBe(200);
    expect(disabled.body.status).toBe(0);
    expect(errorCodes(await socket.waitFor(isEnd, 1000))).toEqual(['FORBIDDEN']);

    for (const token of [p.admin.token, p.agent.token, p.user.token, p.guest.token, `Bearer ${key.body.key}`]) {
      const res = await t.get(`/v3/${p.projectId}/departments`, { token });
      expect(res.status).toBe(403);
      expect(res.body.message).toContain('disabled');
    }
    expect((await send(t, p.projectId, p.guest.token, `support-group-${p.projectId}-x`, { text: 'hello?' })).status).toBe(403);
    expect((await t.post('/v3/auth/signinAnonymously', { body: { id_project: p.projectId } })).status).toBe(403);
    expect((await t.get(`/v3/projects/${p.projectId}/isopen`)).status).toBe(403);
    // The hand-written routes too (files, uploads), which check membership themselves.
    expect((await t.get(`/v3/files?path=${encodeURIComponent(file)}`, { token: p.agent.token })).status).toBe(403);
    const upload = new FormData();
    upload.append('file', new Blob([new Uint8Array(Buffer.from('%PDF-1.4\n%%EOF'))], { type: 'application/pdf' }), 'new.pdf');
    expect((await t.post(`/v3/${p.projectId}/files`, { token: p.guest.token, body: upload })).status).toBe(403);
    // The owner too, for anything but reading the project and enabling it.
    expect((await t.get(`/v3/${p.projectId}/departments`, { token: p.owner.token })).status).toBe(403);
    expect((await t.put(projectPath(), { token: p.owner.token, body: { name: 'Renamed' } })).status).toBe(403);
    expect((await t.get(projectPath(), { token: p.owner.token })).body.status).toBe(0);
    expect((await t.put(projectPath(), { token: p.admin.token, body: { status: 100 } })).status).toBe(403);

    const enabled = await t.put(projectPath(), { token: p.owner.token, body: { status: 100 } });
    expect(enabled.body.status).toBe(100);
    expect((await t.get(`/v3/${p.projectId}/departments`, { token: p.agent.token })).status).toBe(200);
    expect((await t.get(`/v3/files?path=${encodeURIComponent(file)}`, { token: p.agent.token })).status).toBe(200);
  });

  it('is changed by the owner only (an admin gets 403) and must be 100 or 0 (400 naming status)', async () => {
    expect((await t.put(projectPath(), { token: p.admin.token, body: { status: 0 } })).status).toBe(403);
    const wrong = await t.put(projectPath(), { token: p.owner.token, body: { status: 50 } });
    expect(wrong.status).toBe(400);
    expect(wrong.body.field).toBe('status');
  });
});

describe('DELETE /v3/projects/:project_id', () => {
  it('is the owner\'s: an admin gets 403', async () => {
    const p = await t.seedProject('Kept');
    expect((await t.delete(`/v3/projects/${p.projectId}`, { token: p.admin.token })).status).toBe(403);
    expect((await t.get(`/v3/projects/${p.projectId}`, { token: p.admin.token })).status).toBe(200);
  });

  it('answers at once, refuses the project from then on (404), ends its subscriptions, and a job removes its data and files only', async () => {
    const doomed = await t.seedProject('Doomed');
    const kept = await t.seedProject('Neighbour');
    // The same account in both projects: its membership of the other project stays.
    await t.addMember(kept.projectId, kept.owner.token, { email: doomed.agent.email, token: doomed.agent.token }, 'agent');
    const doomedRequest = await openRequest(t, doomed);
    const keptRequest = await openRequest(t, kept);
    const file = new FormData();
    file.append('file', new Blob([new Uint8Array(Buffer.from('%PDF-1.4\n%%EOF'))], { type: 'application/pdf' }), 'a.pdf');
    const doomedFile = (await t.post(`/v3/${doomed.projectId}/files`, { token: doomed.guest.token, body: file })).body.filename as string;
    const keptForm = new FormData();
    keptForm.append('file', new Blob([new Uint8Array(Buffer.from('%PDF-1.4\n%%EOF'))], { type: 'application/pdf' }), 'b.pdf');
    const keptFile = (await t.post(`/v3/${kept.projectId}/files`, { token: kept.guest.token, body: keptForm })).body.filename as string;
    expect(await t.infra.files.exists(doomedFile)).toBe(true);
    const socket = await liveSocket(doomed, doomed.agent.token);

    const res = await t.delete(`/v3/projects/${doomed.projectId}`, { token: doomed.owner.token });
    expect(res.status).toBe(200);
    expect(res.body._id).toBe(doomed.projectId);
    expect(errorCodes(await socket.waitFor(isEnd, 1000))).toEqual(['NOT_FOUND']);
    for (const token of [doomed.owner.token, doomed.agent.token, doomed.guest.token]) {
      expect((await t.get(`/v3/projects/${doomed.projectId}`, { token })).status).toBe(404);
      expect((await t.get(`/v3/${doomed.projectId}/requests/${doomedRequest}`, { token })).status).toBe(404);
    }
    expect((await t.get('/v3/projects', { token: doomed.agent.token })).body.map((m: any) => m.id_project._id)).toEqual([kept.projectId]);

    const db = t.infra.database.prisma;
    await eventually(async () => !(await db.project.findUnique({ where: { id: doomed.projectId } })));
    for (const count of [db.request.count, db.message.count, db.projectUser.count, db.department.count, db.domainEvent.count, db.storedFile.count]) {
      expect(await (count as (args: object) => Promise<number>)({ where: { id_project: doomed.projectId } })).toBe(0);
    }
    expect(await t.infra.files.exists(doomedFile)).toBe(false);
    // The visitor's account existed for that project alone; the agent's goes on.
    expect(await db.user.findUnique({ where: { id: doomed.guest.userId } })).toBeNull();
    expect((await t.get('/v3/auth/me', { token: doomed.agent.token })).status).toBe(200);

    // The neighbour is untouched.
    expect(await t.infra.files.exists(keptFile)).toBe(true);
    expect((await t.get(`/v3/${kept.projectId}/requests/${keptRequest}`, { token: kept.owner.token })).status).toBe(200);
    expect((await t.get(`/v3/${kept.projectId}/requests`, { token: doomed.agent.token })).status).toBe(200);
    expect(await db.projectUser.count({ where: { id_project: kept.projectId } })).toBeGreaterThanOrEqual(6);
  });
});
