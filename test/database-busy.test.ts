import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, type SeededProject, type TestApp } from './helpers/app.js';
import { openRequest, send } from './helpers/conversations.js';
import { productionMode } from './helpers/environment.js';
import { AdmittingPool, asBegunWork } from '../src/infra/connection-admission.js';
import { inRequestScope } from '../src/infra/request-scope.js';

// A node whose database connections are all busy refuses new work up front (503 with Retry-After:
// nothing of it was written), and answers the work it has begun: a write that committed is answered
// with its result, never 503, however long its answer waits for a connection. A client that retried
// an unkeyed close or post told 503 after its commit would close twice or post twice. (The embedded
// database has no pool: PostgreSQL only.)

let t: TestApp;
let p: SeededProject;

beforeAll(async () => {
  if (!productionMode) return;
  // One connection, given up on after 300 ms: a few dozen requests at once overload it.
  ({ client: t } = await createTestServer({
    DATABASE_POOL_SIZE: '1',
    DATABASE_CONNECT_TIMEOUT_MS: '300',
    RATE_LIMIT_REQUESTS: '1000000000',
    RATE_LIMIT_ANONYMOUS_REQUESTS: '1000000000',
  }));
  // Setup, not the behaviour under test: made as begun work, which waits its turn rather than being refused.
  p = await asBegunWork(() => t.seedProject('Busy'));
});
afterAll(() => t?.close());

describe.skipIf(!productionMode)('a node whose database connections are all busy', () => {
  it('answers every close it committed 200, and refuses with 503 only closes it did not make', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 40; i++) ids.push(await openRequest(t, p));
    const answers = await Promise.all(ids.map((id) => t.put(`/v3/${p.projectId}/requests/${id}/close`, { token: p.admin.token })));
    const rows = await t.infra.database.prisma.request.findMany({ where: { id_project: p.projectId, request_id: { in: ids } }, select: { request_id: true, status: true } });
    const closed = new Set(rows.filter((r) => r.status === 1000).map((r) => r.request_id));
    answers.forEach((answer, i) => {
      expect([200, 503]).toContain(answer.status);
      if (answer.status === 503) {
        expect(answer.headers.get('retry-after')).toBeTruthy();
        expect(closed.has(ids[i]), `close of ${ids[i]} answered 503 but committed`).toBe(false);
      } else expect(answer.body).toMatchObject({ request_id: ids[i], status: 1000 });
    });
  });

  it('answers every message it stored 200, and refuses with 503 only messages it did not store', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 20; i++) ids.push(await openRequest(t, p));
    const posts = ids.flatMap((requestId) => [1, 2, 3].map((n) => ({ requestId, text: `busy message ${n} of ${requestId}` })));
    // Agents' posts, while as many conversations are closed: each waits behind the others' statements.
    const others: string[] = [];
    for (let i = 0; i < 20; i++) others.push(await openRequest(t, p));
    const [answers] = await Promise.all([
      Promise.all(posts.map(({ requestId, text }) => send(t, p.projectId, p.admin.token, requestId, { text }))),
      Promise.all(others.map((id) => t.put(`/v3/${p.projectId}/requests/${id}/close`, { token: p.admin.token }))),
    ]);
    const stored = new Set((await t.infra.database.prisma.message.findMany({ where: { id_project: p.projectId, request_id: { in: ids } }, select: { text: true } })).map((m) => m.text));
    answers.forEach((answer, i) => {
      expect([200, 503]).toContain(answer.status);
      if (answer.status === 503) expect(stored.has(posts[i].text), `"${posts[i].text}" answered 503 but stored`).toBe(false);
      else expect(answer.body).toMatchObject({ text: posts[i].text });
    });
  });
});

describe.skipIf(!productionMode)('the connections kept for writes', () => {
  // Two connections, one of them kept for writes: a read takes the other.
  const pool = () => new AdmittingPool({ connectionString: process.env.DATABASE_URL, max: 2, reservedForWrites: 1 });
  const asRequest = <T>(writes: boolean, work: () => Promise<T>) => inRequestScope(`test-${writes ? 'write' : 'read'}`, work, { writes });
  const settledSoon = (promise: Promise<unknown>) => Promise.race([promise.then(() => true), new Promise((resolve) => setTimeout(resolve, 200, false))]);

  it('gives a write a connection at once while reads wait for theirs', async () => {
    const p = pool();
    try {
      const reading = await asRequest(false, () => p.connect());
      const secondRead = asRequest(false, () => p.connect());
      const write = asRequest(true, () => p.connect());
      expect(await settledSoon(write)).toBe(true);
      expect(await settledSoon(secondRead)).toBe(false);
      reading.release();
      expect(await settledSoon(secondRead)).toBe(true);
      (await write).release();
      (await secondRead).release();
    } finally {
      await p.end();
    }
  });

  it('hands a connection a write gave back to the next write, not to a read waiting longer, while reads hold their share', async () => {
    const p = pool();
    try {
      const reading = await asRequest(false, () => p.connect());
      const writing = await asRequest(true, () => p.connect());
      const read = asRequest(false, () => p.connect());
      const write = asRequest(true, () => p.connect());
      expect(await settledSoon(write)).toBe(false);
      writing.release();
      expect(await settledSoon(write)).toBe(true);
      expect(await settledSoon(read)).toBe(false);
      reading.release();
      expect(await settledSoon(read)).toBe(true);
      (await write).release();
      (await read).release();
    } finally {
      await p.end();
    }
  });
});
