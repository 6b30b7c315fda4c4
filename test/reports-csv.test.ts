import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedTestApp, type SeededProject, type TestApp } from './helpers/app.js';
import { openRequest, send } from './helpers/conversations.js';

let t: TestApp;
let p: SeededProject;
let other: SeededProject;

beforeAll(async () => {
  t = await sharedTestApp();
  p = await t.seedProject('Reported');
  other = await t.seedProject('Elsewhere');
});
afterAll(() => t.close());

const csv = (query = '', token = p.admin.token, projectId = p.projectId) =>
  fetch(`${t.baseUrl}/v3/${projectId}/analytics/conversations.csv${query}`, { headers: { authorization: token } });

const rowsOf = (text: string) => text.trim().split('\r\n').map((line) => line.split(','));

describe('GET /analytics/conversations.csv', () => {
  it('gives one row per conversation with the report\'s columns', async () => {
    const a = await openRequest(t, p);
    const b = await openRequest(t, p);
    await t.put(`/v3/${p.projectId}/requests/${a}/tag`, { token: p.admin.token, body: { tag: 'billing' } });
    await send(t, p.projectId, p.admin.token, a, { text: 'on it' });
    await t.put(`/v3/${p.projectId}/requests/${a}/close`, { token: p.admin.token });
    const res = await csv();
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
    const [header, ...rows] = rowsOf(await res.text());
    expect(header).toEqual(['id', 'created', 'first_response_seconds', 'resolution_seconds', 'agent', 'department', 'tags', 'rating', 'sla_breached']);
    const row = rows.find((r) => r[0] === a)!;
    expect(row[6]).toBe('billing');
    expect(row[3]).toMatch(/^\d+$/);
    expect(row[8]).toBe('false');
    expect(rows.find((r) => r[0] === b)![3]).toBe('');
    expect(new Set(rows.map((r) => r[0])).size).toBe(rows.length);
  });

  it('writes created as the conversation\'s creation time, in UTC with milliseconds as REST shows it', async () => {
    const a = await openRequest(t, p);
    const request = (await t.get(`/v3/${p.projectId}/requests/${a}`, { token: p.admin.token })).body as { createdAt: string };
    const row = rowsOf(await (await csv()).text()).find((r) => r[0] === a)!;
    expect(row[1]).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(row[1]).toBe(new Date(request.createdAt).toISOString());
  });

  it('holds only the project\'s own conversations', async () => {
    const theirs = await openRequest(t, other);
    expect(await (await csv()).text()).not.toContain(theirs);
  });

  it('is refused to agents (403) and to another project\'s admin (403)', async () => {
    expect((await csv('', p.agent.token)).status).toBe(403);
    expect((await csv('', other.admin.token)).status).toBe(403);
  });

  it('answers 400 naming from for a date that is none', async () => {
    const res = await csv('?from=soon');
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: 'BAD_USER_INPUT', field: 'from' });
  });

  it('is recorded in the audit log', async () => {
    await (await csv()).text();
    const audit = await t.get(`/v3/${p.projectId}/audit?action=report.export`, { token: p.admin.token });
    expect(audit.body[0]).toMatchObject({ actor: { id: p.admin.userId }, details: { format: 'csv' } });
  });
});
