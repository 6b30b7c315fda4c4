import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bodyDigest, idempotencyLane } from '../src/http/idempotency.js';
import { createListener, type Lane } from '../src/http/listener.js';
import { IdempotencyKeys } from '../src/infra/idempotency.js';
import pg from 'pg';
import { productionMode } from './helpers/environment.js';
import { createTestApp, type SeededProject, type TestApp } from './helpers/app.js';
import { newRequestId } from './helpers/conversations.js';

// `Idempotency-Key` on REST POSTs: a retry gets the first answer and writes nothing; the key is
// the caller's, in its project; another request under a used key is refused.

let t: TestApp;
let p: SeededProject;
beforeAll(async () => {
  t = await createTestApp();
  p = await t.seedProject('Keys');
});
afterAll(() => t.close());

let counter = 0;
const newKey = () => `key-${Date.now()}-${++counter}`;
const db = () => t.infra.database.prisma;

const postMessage = (key: string, text: string, options: { token?: string; requestId?: string; projectId?: string } = {}) =>
  t.post(`/v3/${options.projectId ?? p.projectId}/requests/${options.requestId ?? requestId}/messages`, {
    token: options.token ?? p.admin.token,
    headers: { 'idempotency-key': key },
    body: { text },
  });
const messagesWith = (text: string) => db().message.count({ where: { text } });

let requestId: string;
beforeAll(async () => {
  requestId = newRequestId();
  const opened = await t.post(`/v3/${p.projectId}/requests/${requestId}/messages`, { token: p.admin.token, body: { text: 'opening' } });
  expect(opened.status).toBe(200);
});

describe('a retried POST with the same key', () => {
  it('answers the first answer again, marked as replayed, and writes nothing new', async () => {
    const key = newKey();
    const first = await postMessage(key, 'said once');
    const retry = await postMessage(key, 'said once');
    expect(first.status).toBe(200);
    expect(retry.status).toBe(200);
    expect(retry.body).toEqual(first.body);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(await messagesWith('said once')).toBe(1);
  });

  it('answers a final client error again rather than running once more', async () => {
    const key = newKey();
    const body = { tag: 'colourful', color: 'not a colour' };
    const first = await t.post(`/v3/${p.projectId}/tags`, { token: p.admin.token, headers: { 'idempotency-key': key }, body });
    const retry = await t.post(`/v3/${p.projectId}/tags`, { token: p.admin.token, headers: { 'idempotency-key': key }, body });
    expect(first.status).toBe(400);
    expect(retry.status).toBe(400);
    expect(retry.body).toEqual(first.body);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
  });

  it('answers the headers of the first answer too (a new webhook subscription and its secret)', async () => {
    const key = newKey();
    const body = { event: 'message.create', target: 'https://example.com/idempotent' };
    const first = await t.post(`/v3/${p.projectId}/subscriptions`, { token: p.owner.token, headers: { 'idempotency-key': key }, body });
    const retry = await t.post(`/v3/${p.projectId}/subscriptions`, { token: p.owner.token, headers: { 'idempotency-key': key }, body });
    expect(first.status).toBe(200);
    expect(retry.body).toEqual(first.body);
    expect(retry.headers.get('x-hook-secret')).toBe(first.headers.get('x-hook-secret'));
    expect(await db().subscription.count({ where: { id_project: p.projectId, target: body.target } })).toBe(1);
  });

  it('answers an upload again although the retry chose another multipart boundary', async () => {
    const key = newKey();
    const upload = () => {
      const form = new FormData();
      form.append('file', new Blob([Buffer.from('retried attachment\n')], { type: 'text/plain' }), 'note.txt');
      return t.post(`/v3/${p.projectId}/files`, { token: p.agent.token, headers: { 'idempotency-key': key }, body: form });
    };
    const first = await upload();
    const retry = await upload();
    expect(first.status).toBe(200);
    expect(retry.body).toEqual(first.body);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(await db().storedFile.count({ where: { id_project: p.projectId, path: { endsWith: '/note.txt' } } })).toBe(1);
  });

  it('runs again once the key is older than 24 hours', async () => {
    const key = newKey();
    await postMessage(key, 'said daily');
    await db().$executeRaw`UPDATE "IdempotencyKey" SET "createdAt" = "createdAt" - interval '25 hours' WHERE "key" = ${key}`;
    const later = await postMessage(key, 'said daily');
    expect(later.status).toBe(200);
    expect(later.headers.get('idempotent-replayed')).toBeNull();
    expect(await messagesWith('said daily')).toBe(2);
  });
});

describe('a used key for another request', () => {
  it('answers 422 for another body, and writes nothing', async () => {
    const key = newKey();
    await postMessage(key, 'first body');
    const other = await postMessage(key, 'second body');
    expect(other.status).toBe(422);
    expect(other.body).toMatchObject({ code: 'UNPROCESSABLE', field: 'Idempotency-Key' });
    expect(await messagesWith('second body')).toBe(0);
  });

  it('answers 422 for another path', async () => {
    const key = newKey();
    await postMessage(key, 'on one path');
    const other = await t.post(`/v3/${p.projectId}/tags`, { token: p.admin.token, headers: { 'idempotency-key': key }, body: { tag: 'on another path' } });
    expect(other.status).toBe(422);
    expect(await db().tag.count({ where: { tag: 'on another path' } })).toBe(0);
  });

  it.skipIf(!productionMode)('answers 409 while the first request with the key has not committed (on another node)', async () => {
    const key = newKey();
    const body = { text: 'in flight' };
    const path = `/v3/${p.projectId}/requests/${requestId}/messages`;
    // Claimed as the first request does on arrival, in its transaction, as if it ran on another node and had not answered yet.
    const other = new pg.Client({ connectionString: t.infra.config.databaseUrl });
    await other.connect();
    try {
      await other.query('BEGIN');
      await other.query(
        `INSERT INTO "IdempotencyKey" ("id", "key", "caller", "id_project", "request", "bodyHash", "createdAt") VALUES ($1, $2, $3, $4, $5, $6, now())`,
        [`claim-${key}`, key, p.admin.userId, p.projectId, `POST ${path}`, bodyDigest('application/json', Buffer.from(JSON.stringify(body)))],
      );
      const retry = await t.post(path, { token: p.admin.token, headers: { 'idempotency-key': key }, body });
      expect(retry.status).toBe(409);
      expect(retry.body).toMatchObject({ code: 'CONFLICT', field: 'Idempotency-Key' });
      expect(await messagesWith('in flight')).toBe(0);
    } finally {
      await other.query('ROLLBACK');
      await other.end();
    }
  });

  it('writes once when the same request is sent many times at once: each answer is the first one or 409', async () => {
    const key = newKey();
    const answers = await Promise.all(Array.from({ length: 8 }, () => postMessage(key, 'sent at once')));
    const succeeded = answers.filter((a) => a.status === 200);
    expect(answers.every((a) => a.status === 200 || a.status === 409)).toBe(true);
    expect(succeeded.length).toBeGreaterThan(0);
    expect(new Set(succeeded.map((a) => a.body._id)).size).toBe(1);
    expect(await messagesWith('sent at once')).toBe(1);
  });
});

describe('keys are the caller\'s, in its project', () => {
  it('never replays one caller\'s answer to another caller using the same key', async () => {
    const key = newKey();
    const admins = await postMessage(key, 'same words');
    const owners = await postMessage(key, 'same words', { token: p.owner.token });
    expect(owners.status).toBe(200);
    expect(owners.headers.get('idempotent-replayed')).toBeNull();
    expect(owners.body._id).not.toBe(admins.body._id);
    expect(owners.body.sender).toBe(p.owner.userId);
    expect(await messagesWith('same words')).toBe(2);
  });

  it('treats the same caller\'s key in another project as another key', async () => {
    const other = await t.post('/v3/projects', { token: p.admin.token, body: { name: 'Other' } });
    const key = newKey();
    const here = await t.post(`/v3/${p.projectId}/tags`, { token: p.admin.token, headers: { 'idempotency-key': key }, body: { tag: 'shared name' } });
    const there = await t.post(`/v3/${other.body._id}/tags`, { token: p.admin.token, headers: { 'idempotency-key': key }, body: { tag: 'shared name' } });
    expect(there.status).toBe(200);
    expect(there.body.id_project).toBe(other.body._id);
    expect(there.body._id).not.toBe(here.body._id);
  });
});

describe('the Idempotency-Key header', () => {
  it('answers 400 naming the header when it is empty or longer than 255 characters', async () => {
    for (const key of ['', 'k'.repeat(256)]) {
      const res = await postMessage(key, 'bad key');
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'BAD_USER_INPUT', field: 'Idempotency-Key' });
    }
    expect(await messagesWith('bad key')).toBe(0);
  });

  it('accepts a key written as a quoted string, as the IETF draft does', async () => {
    const key = newKey();
    const first = await postMessage(`"${key}"`, 'quoted key');
    const retry = await postMessage(key, 'quoted key');
    expect(retry.body).toEqual(first.body);
    expect(await messagesWith('quoted key')).toBe(1);
  });
});

describe('answers that are not kept', () => {
  /** A server whose only route answers `statuses` in turn, counting its runs, behind the idempotency lane. */
  async function scripted(statuses: number[]) {
    let runs = 0;
    const route: Lane = (req) => (req.url?.startsWith('/v3/') ? async () => ({ status: statuses[runs++] ?? 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ run: runs }) }) : null);
    const keyed = idempotencyLane({
      lanes: [route],
      rest: { match: () => null } as never,
      keys: new IdempotencyKeys(db(), t.infra.logger),
      identify: async (req: IncomingMessage) => ({ userId: String(req.headers.authorization) }),
      config: t.infra.config,
      logger: t.infra.logger,
    });
    const server = createServer(createListener([keyed, route], t.app.yoga as never, t.infra.logger));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v3/scripted`;
    const key = newKey();
    const post = () => fetch(url, { method: 'POST', headers: { authorization: `caller-${key}`, 'idempotency-key': key }, body: '{}' });
    return { post, runs: () => runs, close: () => new Promise((resolve) => server.close(resolve)) };
  }

  it('runs again after a server error (5xx)', async () => {
    const s = await scripted([500, 200]);
    expect((await s.post()).status).toBe(500);
    const retry = await s.post();
    expect(retry.status).toBe(200);
    expect(s.runs()).toBe(2);
    expect((await s.post()).headers.get('idempotent-replayed')).toBe('true');
    await s.close();
  });

  it('runs again after 429 Too Many Requests', async () => {
    const s = await scripted([429, 201]);
    expect((await s.post()).status).toBe(429);
    expect((await s.post()).status).toBe(201);
    expect(s.runs()).toBe(2);
    await s.close();
  });
});
