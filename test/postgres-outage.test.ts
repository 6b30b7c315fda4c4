import { afterEach, describe, expect, it } from 'vitest';
import pg from 'pg';
import type { App } from '../src/app.js';
import { TestApp, testEnvironment } from './helpers/app.js';
import { eventually, newRequestId, send } from './helpers/conversations.js';
import { productionMode } from './helpers/environment.js';
import { nodeProcessEnv, runScript, type ScriptProcess } from './helpers/script-process.js';
import { tcpProxy } from './helpers/tcp-proxy.js';

// PostgreSQL dropping its connections (a restart, a failover, a pgbouncer restart, an
// idle_session_timeout) must not end a node: the requests caught in it answer 503 with
// Retry-After, the next ones succeed, and an Idempotency-Key post is stored once. The node runs in
// a process of its own (an unhandled 'error' event would end it) on this test's own database; the
// faults touch that database's backends only (pg_terminate_backend filtered by datname).

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A node in its own process on this test's own database, directly or through a proxy of the test's (`viaProxy`). */
async function nodeOnOwnDatabase(options: { viaProxy?: boolean; env?: Record<string, string> } = {}) {
  const environment = await testEnvironment();
  cleanups.push(() => environment.dispose());
  const databaseUrl = new URL(environment.config.databaseUrl!);
  const proxy = options.viaProxy ? await tcpProxy({ host: databaseUrl.hostname, port: Number(databaseUrl.port || 5432) }) : undefined;
  if (proxy) cleanups.push(() => proxy.close());
  const nodeUrl = proxy ? Object.assign(new URL(databaseUrl), { port: String(proxy.port) }).toString() : databaseUrl.toString();
  const node = runScript('test/helpers/node-process.ts', nodeProcessEnv(environment.config, { DATABASE_POOL_SIZE: '6', DATABASE_URL: nodeUrl, ...options.env }));
  cleanups.push(() => node.kill());
  const url = await node.until(() => node.lines().find((line) => typeof line.url === 'string')?.url as string | undefined, 180_000);
  const databaseName = new URL(environment.config.databaseUrl!).pathname.slice(1);
  const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await admin.connect();
  cleanups.push(() => admin.end());
  return { node, client: new TestApp(undefined as unknown as App, async () => {}, url), admin, databaseName, proxy: proxy! };
}

const alive = (node: ScriptProcess) => node.child.exitCode === null && node.child.signalCode === null;

/** Ends every connection the node holds to its database, as a PostgreSQL restart does. */
async function terminateBackends(admin: pg.Client, databaseName: string) {
  const { rows } = await admin.query<{ n: string }>(
    'SELECT count(pg_terminate_backend(pid)) AS n FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
    [databaseName],
  );
  return Number(rows[0].n);
}

describe.skipIf(!productionMode)('a node while PostgreSQL drops its connections', () => {
  it('keeps serving when every backend of its database is terminated under load: 503 with Retry-After meanwhile, every keyed post stored once', async () => {
    const { node, client, admin, databaseName } = await nodeOnOwnDatabase();
    const owner = await client.newUser('owner');
    const projectId = (await client.post('/v3/projects', { token: owner.token, body: { name: 'Outage' } })).body._id as string;
    const requestId = newRequestId();
    expect((await send(client, projectId, owner.token, requestId, { text: 'opening' })).status).toBe(200);
    const path = `/v3/${projectId}/requests/${requestId}/messages`;

    const answers: Array<{ status: number; retryAfter: string | null; code?: string }> = [];
    let stop = false;
    let terminated = 0;
    const posted: string[] = [];
    const poster = async (k: number) => {
      for (let n = 0; !stop || n < 3; n++) {
        const text = `post ${k}-${n}`;
        // Retried with the same key until it is answered 200, as a client told 503 does.
        for (let attempt = 0; attempt < 200; attempt++) {
          const res = await client.post(path, { token: owner.token, headers: { 'idempotency-key': `outage-${k}-${n}` }, body: { text } }).catch(() => null);
          if (res) answers.push({ status: res.status, retryAfter: res.headers.get('retry-after'), code: res.body?.code });
          if (res?.status === 200) break;
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
        posted.push(text);
      }
    };
    const posting = Array.from({ length: 6 }, (_, k) => poster(k));
    // Several rounds of terminations while the posts run.
    for (let round = 0; round < 8; round++) {
      await new Promise((resolve) => setTimeout(resolve, 150));
      terminated += await terminateBackends(admin, databaseName);
    }
    stop = true;
    await Promise.all(posting);

    if (process.env.SHOW_FIGURES) console.log(JSON.stringify({ terminated, answers: answers.length, by: answers.reduce<Record<string, number>>((m, a) => ((m[a.status] = (m[a.status] ?? 0) + 1), m), {}), posted: posted.length }));
    expect(terminated).toBeGreaterThan(0);
    expect(alive(node), node.output()).toBe(true);
    // Nothing answered 500; every refusal is a 503 that says when to come back.
    expect(answers.filter((a) => a.status !== 200 && a.status !== 503), JSON.stringify(answers.filter((a) => a.status !== 200))).toEqual([]);
    for (const refused of answers.filter((a) => a.status === 503)) {
      expect(refused.code).toBe('SERVICE_UNAVAILABLE');
      expect(Number(refused.retryAfter)).toBeGreaterThanOrEqual(1);
    }
    // Once it is over: ready again, and each keyed post stored exactly once.
    expect(await eventually(async () => (await fetch(`${client.baseUrl}/ready`)).status === 200, 30_000)).toBe(true);
    const own = new pg.Client({ connectionString: Object.assign(new URL(process.env.DATABASE_URL!), { pathname: `/${databaseName}` }).toString() });
    await own.connect();
    const { rows } = await own.query<{ text: string; n: number }>(
      `SELECT "text", count(*)::int AS n FROM "Message" WHERE "id_project" = $1 AND "text" LIKE 'post %' GROUP BY "text"`,
      [projectId],
    );
    await own.end();
    expect(rows.filter((row) => row.n > 1)).toEqual([]);
    expect(rows.map((row) => row.text).sort()).toEqual([...posted].sort());
    expect(answers.filter((a) => a.status === 200).length).toBe(posted.length);
  }, 300_000);

  it('rides out a restart: while PostgreSQL refuses connections a keyed post answers 503 with Retry-After and /ready 503; once it is back the retry is stored once', async () => {
    const { node, client, proxy } = await nodeOnOwnDatabase({ viaProxy: true });
    const owner = await client.newUser('owner');
    const projectId = (await client.post('/v3/projects', { token: owner.token, body: { name: 'Restart' } })).body._id as string;
    const requestId = newRequestId();
    expect((await send(client, projectId, owner.token, requestId, { text: 'opening' })).status).toBe(200);
    const path = `/v3/${projectId}/requests/${requestId}/messages`;
    const post = () => client.post(path, { token: owner.token, headers: { 'idempotency-key': 'restart-1' }, body: { text: 'during the restart' } });

    proxy.down();
    const refused = await post();
    expect(refused.status).toBe(503);
    expect(refused.body.code).toBe('SERVICE_UNAVAILABLE');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    const read = await client.get(`${path}?limit=10`, { token: owner.token });
    expect(read.status).toBe(503);
    expect(read.headers.get('retry-after')).not.toBeNull();
    const graphql = await client.gql('query($p: String!, $r: String!) { messages(project_id: $p, request_id: $r) { _id } }', { p: projectId, r: requestId }, owner.token);
    expect(graphql.status).toBe(503);
    expect(graphql.body.errors?.[0]?.extensions?.code).toBe('SERVICE_UNAVAILABLE');
    expect((await fetch(`${client.baseUrl}/ready`)).status).toBe(503);
    expect((await fetch(`${client.baseUrl}/health`)).status).toBe(200);
    expect(alive(node), node.output()).toBe(true);

    proxy.up();
    expect(await eventually(async () => (await fetch(`${client.baseUrl}/ready`)).status === 200, 30_000)).toBe(true);
    const retried = await post();
    expect(retried.status).toBe(200);
    expect((await post()).headers.get('idempotent-replayed')).toBe('true');
    const listed = await client.get(`${path}?limit=10`, { token: owner.token });
    expect((listed.body as Array<{ text: string }>).filter((m) => m.text === 'during the restart')).toHaveLength(1);
  }, 300_000);

  it('survives PostgreSQL ending its idle connections (idle_session_timeout on its database) and serves the next request', async () => {
    const { node, client, admin, databaseName } = await nodeOnOwnDatabase();
    const owner = await client.newUser('owner');
    await admin.query(`ALTER DATABASE "${databaseName}" SET idle_session_timeout = '1s'`);
    // Connections opened from now on take the setting: end the node's current ones so its pool opens new ones.
    await terminateBackends(admin, databaseName);
    const project = await eventually(async () => {
      const made = await client.post('/v3/projects', { token: owner.token, body: { name: 'Idle' } });
      return made.status === 200 ? made : null;
    }, 30_000);
    // The pool's connections sit idle past the timeout, and PostgreSQL ends them: every backend the
    // node holds now is gone a while later. (Its sweeps, every second, open new ones meanwhile, so
    // the count itself need not ever reach zero.)
    const backends = async () =>
      new Set((await admin.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE datname = $1', [databaseName])).rows.map((r) => r.pid));
    const held = await backends();
    await eventually(async () => {
      const now = await backends();
      return [...held].every((pid) => !now.has(pid));
    }, 30_000);
    expect(alive(node), node.output()).toBe(true);
    const read = await client.get(`/v3/projects/${project.body._id}`, { token: owner.token });
    expect(read.status).toBe(200);
    expect(alive(node), node.output()).toBe(true);
  }, 300_000);

  it('answers the posts held up by a PostgreSQL hang once it resumes, none with 500 and none stored twice; /ready says 503 meanwhile', async () => {
    const { node, client, proxy } = await nodeOnOwnDatabase({ viaProxy: true });
    const owner = await client.newUser('owner');
    const projectId = (await client.post('/v3/projects', { token: owner.token, body: { name: 'Hang' } })).body._id as string;
    const requestId = newRequestId();
    expect((await send(client, projectId, owner.token, requestId, { text: 'opening' })).status).toBe(200);
    const path = `/v3/${projectId}/requests/${requestId}/messages`;
    const post = (n: number) => client.post(path, { token: owner.token, headers: { 'idempotency-key': `hang-${n}` }, body: { text: `hang ${n}` } });

    proxy.hang();
    const held = Array.from({ length: 8 }, (_, n) => post(n));
    expect((await fetch(`${client.baseUrl}/ready`)).status).toBe(503);
    proxy.resume();
    const first = await Promise.all(held);
    expect(first.filter((res) => res.status !== 200 && res.status !== 503).map((res) => res.body)).toEqual([]);
    // Retried with their keys until answered, as a client told 503 does.
    for (let n = 0; n < 8; n++) {
      if (first[n].status === 200) continue;
      expect(first[n].headers.get('retry-after')).not.toBeNull();
      expect((await eventually(async () => ((await post(n)).status === 200 ? true : null), 30_000))).toBe(true);
    }
    const listed = await client.get(`${path}?limit=50`, { token: owner.token });
    const texts = (listed.body as Array<{ text: string }>).map((m) => m.text).filter((t) => t.startsWith('hang '));
    expect(texts.sort()).toEqual(Array.from({ length: 8 }, (_, n) => `hang ${n}`).sort());
    expect(alive(node), node.output()).toBe(true);
  }, 300_000);
});

describe.skipIf(!productionMode)('a node starting while PostgreSQL is down', () => {
  it('waits for PostgreSQL instead of exiting, then migrates and serves', async () => {
    const environment = await testEnvironment();
    cleanups.push(() => environment.dispose());
    const databaseUrl = new URL(environment.config.databaseUrl!);
    const proxy = await tcpProxy({ host: databaseUrl.hostname, port: Number(databaseUrl.port || 5432) });
    cleanups.push(() => proxy.close());
    proxy.down();
    const nodeUrl = Object.assign(new URL(databaseUrl), { port: String(proxy.port) }).toString();
    const node = runScript('test/helpers/node-process.ts', nodeProcessEnv(environment.config, { DATABASE_URL: nodeUrl }));
    cleanups.push(() => node.kill());
    await node.until(() => node.output().includes('the database does not answer yet'), 60_000);
    proxy.up();
    const url = await node.until(() => node.lines().find((line) => typeof line.url === 'string')?.url as string | undefined, 90_000);
    expect((await fetch(`${url}/ready`)).status).toBe(200);
    const signup = await fetch(`${url}/v3/auth/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'late@example.test', password: 'correct horse battery' }),
    });
    expect(signup.status).toBe(200);
  });
});
