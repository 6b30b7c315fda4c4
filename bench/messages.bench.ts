// Messages on the production setup (PostgreSQL + Redis):
// 1. POST message throughput and p99 at 32 connections, against a bare node:http handler doing
//    one insert and one Redis publish (the floor any message endpoint pays), run in the same process;
//    and the same in embedded mode against a bare node:http handler doing one PGlite insert;
// 2. delivery latency from POST to 1,000 subscribed websocket clients at 200 messages/s;
// 3. server memory per idle subscribed websocket client, with 5,000 clients in another process.
// BENCH_PART=throughput|embedded|delivery|memory runs only that part (e.g. `BENCH_PART=throughput
// BENCH_DURATION_MS=8000 npm run bench messages`); BENCH_RATES sets part 2's rates (default 200,50 messages/s).
import { fork } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { Redis } from 'ioredis';
import pg from 'pg';
import { startServer, type RunningServer } from '../src/server.js';
import { benchConfig, productionConfig, benchRedisUrl } from './environment.js';
import { httpLoad, percentile, printTable } from './lib.js';

const concurrency = 32;
const durationMs = Number(process.env.BENCH_DURATION_MS ?? 15_000);
const seconds = Math.round(durationMs / 1000);
const body = (text: string) => JSON.stringify({ text, attributes: { client: 'bench' } });
const requestId = (n: number | string) => `support-group-bench-${n}`;

async function call(base: string, method: string, path: string, token?: string, payload?: unknown) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: token } : {}) },
    body: payload === undefined ? undefined : JSON.stringify(payload),
  });
  const json = (await res.json()) as any;
  if (res.status !== 200) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

/** A project, its owner token and `visitors` anonymous visitors, each with a conversation. */
async function seed(base: string, visitors: number) {
  const email = `bench.${Date.now()}.${Math.random().toString(36).slice(2)}@example.test`;
  await call(base, 'POST', '/v3/auth/signup', undefined, { email, password: 'bench password', firstname: 'Bench' });
  const owner = (await call(base, 'POST', '/v3/auth/signin', undefined, { email, password: 'bench password' })).token as string;
  const project = (await call(base, 'POST', '/v3/projects', owner, { name: 'Bench' }))._id as string;
  const guests: Array<{ token: string; requestId: string }> = [];
  for (let i = 0; i < visitors; i++) {
    const token = (await call(base, 'POST', '/v3/auth/signinAnonymously', undefined, { id_project: project, firstname: `V${i}` })).token;
    const id = requestId(`${project}-${i}`);
    await call(base, 'POST', `/v3/${project}/requests/${id}/messages`, token, { text: 'hello' });
    guests.push({ token, requestId: id });
  }
  return { owner, project, guests };
}

/** The floor: parse the body, one INSERT, one PUBLISH, answer JSON. */
async function baseline(databaseUrl: string) {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 20 });
  await pool.query('CREATE TABLE IF NOT EXISTS bench_message (id bigserial PRIMARY KEY, request_id text, text text, created_at timestamptz DEFAULT now())');
  const redis = new Redis(benchRedisUrl);
  const server = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk) => (raw += chunk));
    req.on('end', async () => {
      const message = JSON.parse(raw) as { text: string };
      const { rows } = await pool.query('INSERT INTO bench_message (request_id, text) VALUES ($1, $2) RETURNING id, created_at', [req.url, message.text]);
      await redis.publish('bench:messages', JSON.stringify({ id: rows[0].id }));
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ _id: rows[0].id, text: message.text, createdAt: rows[0].created_at }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      redis.disconnect();
      await pool.end();
    },
  };
}

/**
 * POST message at `concurrency` keep-alive connections from a lean load generator in its own
 * process (bench/http-load.ts, or wrk when installed: never fetch, whose client would take most of
 * a small machine's CPU and cap the baseline), against `floor` in the same run.
 */
async function postLoad(serverUrl: string, floorUrl: string, label: string, floorLabel: string) {
  // Each connection a visitor writing in their own conversation, all of one project.
  const { project, guests } = await seed(serverUrl, concurrency);
  const message = body('a message from the load generator');
  const load = (url: string, perConnection: Array<{ url: string; headers?: Record<string, string> }>) =>
    httpLoad({ url, method: 'POST', headers: { 'content-type': 'application/json' }, body: message, connections: concurrency, seconds, perConnection });
  const base = await load(floorUrl, guests.map((g) => ({ url: `${floorUrl}/${g.requestId}` })));
  const ours = await profiled(() =>
    load(
      serverUrl,
      guests.map((g) => ({ url: `${serverUrl}/v3/${project}/requests/${g.requestId}/messages`, headers: { authorization: g.token } })),
    ),
  );
  return { base, ours, rows: [{ run: floorLabel, ...base }, { run: label, ...ours }] };
}

/**
 * With BENCH_PROFILE=<directory>, a CPU profile of this process (the server's) while `run` runs,
 * written there as messages-<time>.cpuprofile: where a post's time goes, without the baseline's.
 */
async function profiled<T>(run: () => Promise<T>): Promise<T> {
  const dir = process.env.BENCH_PROFILE;
  if (!dir) return run();
  const session = new Session();
  session.connect();
  const post = (method: string, params?: object) =>
    new Promise<any>((resolve, reject) => session.post(method, params, (error, result) => (error ? reject(error) : resolve(result))));
  await post('Profiler.enable');
  await post('Profiler.start');
  try {
    return await run();
  } finally {
    const { profile } = await post('Profiler.stop');
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, `messages-${Date.now()}.cpuprofile`), JSON.stringify(profile));
    session.disconnect();
  }
}

/** A ratio against its target, as the bench prints it. */
function verdict(what: string, ratio: number, target: number) {
  return `${what}: ${Math.round(ratio * 100)}% of the baseline (target: at least ${Math.round(target * 100)}%) ${ratio >= target ? 'PASS' : 'FAIL'}`;
}

async function throughput(server: RunningServer, databaseUrl: string) {
  const floor = await baseline(databaseUrl);
  const { base, ours, rows } = await postLoad(server.url, floor.url, 'POST /v3/:project_id/requests/:request_id/messages', 'baseline (node:http, 1 insert + 1 publish)');
  await floor.close();
  printTable(`POST message, production mode, ${concurrency} connections, ${seconds}s`, rows);
  console.log(verdict('throughput', ours.throughput / base.throughput, 0.6));
  console.log(`p99: ${ours.p99} ms against the baseline's ${base.p99} ms (target: at most 2×) ${ours.p99 <= 2 * base.p99 ? 'PASS' : 'FAIL'}`);
}

/** The embedded floor: parse the body, one PGlite INSERT, answer JSON. */
async function embeddedBaseline() {
  const { PGlite } = await import('@electric-sql/pglite');
  const db = new PGlite(mkdtempSync(path.join(tmpdir(), 'sp-bench-pglite-')));
  await db.exec('CREATE TABLE bench_message (id bigserial PRIMARY KEY, request_id text, text text, created_at timestamptz DEFAULT now())');
  const server = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk) => (raw += chunk));
    req.on('end', async () => {
      const message = JSON.parse(raw) as { text: string };
      const { rows } = await db.query<{ id: number; created_at: Date }>('INSERT INTO bench_message (request_id, text) VALUES ($1, $2) RETURNING id, created_at', [req.url, message.text]);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ _id: rows[0].id, text: message.text, createdAt: rows[0].created_at }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await db.close();
    },
  };
}

/** What a newcomer runs: embedded mode (PGlite, in-process events), against a bare PGlite insert. */
async function embedded() {
  const server = await startServer(benchConfig());
  const floor = await embeddedBaseline();
  try {
    const { base, ours, rows } = await postLoad(server.url, floor.url, 'POST message, embedded mode', 'baseline (node:http, 1 PGlite insert)');
    printTable(`POST message, embedded mode, ${concurrency} connections, ${seconds}s`, rows);
    console.log(verdict('embedded throughput', ours.throughput / base.throughput, 0.25));
  } finally {
    await floor.close();
    await server.close();
  }
}

/** The subscriber process, and a way to ask it something and wait for its answer. */
function subscriberProcess() {
  const child = fork(fileURLToPath(new URL('./subscribers.ts', import.meta.url)), [], { execArgv: ['--import', 'tsx'] });
  const ask = <T>(command: object, answer?: string) =>
    new Promise<T>((resolve, reject) => {
      const onExit = (code: number) => reject(new Error(`subscriber process exited with ${code}`));
      child.once('exit', onExit);
      if (!answer) {
        child.send(command, () => resolve(undefined as T));
        child.off('exit', onExit);
        return;
      }
      const onMessage = (message: { type: string }) => {
        if (message.type !== answer) return;
        child.off('message', onMessage);
        child.off('exit', onExit);
        resolve(message as T);
      };
      child.on('message', onMessage);
      child.send(command);
    });
  return {
    ask,
    async close() {
      child.send({ type: 'close' });
      await new Promise((resolve) => child.once('exit', resolve));
    },
  };
}

const wallClock = () => performance.timeOrigin + performance.now();

async function delivery(server: RunningServer) {
  const subscribers = 1000;
  const conversations = 100;
  const { owner, project, guests } = await seed(server.url, conversations);
  // Ten subscribers per conversation (the visitor's widget and nine agent consoles), one socket each.
  const children = subscriberProcess();
  const list = Array.from({ length: subscribers }, (_, i) => ({
    token: i < conversations ? guests[i].token : owner,
    requestId: guests[i % conversations].requestId,
  }));
  await children.ask({ type: 'open', url: server.url, project, subscribers: list }, 'opened');
  // Subscriptions are live once a probe message has reached every one of them.
  let live = 0;
  for (let round = 0; round < 20 && live < subscribers; round++) {
    for (const guest of guests) await call(server.url, 'POST', `/v3/${project}/requests/${guest.requestId}/messages`, guest.token, { text: 'probe' });
    live = (await children.ask<{ count: number }>({ type: 'live' }, 'live')).count;
  }
  const rows = [];
  for (const rate of (process.env.BENCH_RATES ?? '200,50').split(',').map(Number)) {
    await children.ask({ type: 'reset' });
    const total = Math.round((rate * durationMs) / 1000);
    const sent = new Map<string, number>();
    let errors = 0;
    const startedAt = performance.now();
    const posts: Promise<void>[] = [];
    for (let n = 0; n < total; n++) {
      const wait = startedAt + (n * 1000) / rate - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      const guest = guests[n % conversations];
      const text = `live-${rate}-${n}`;
      sent.set(text, wallClock());
      posts.push(
        call(server.url, 'POST', `/v3/${project}/requests/${guest.requestId}/messages`, guest.token, { text }).then(
          () => {},
          () => void errors++,
        ),
      );
    }
    await Promise.all(posts);
    const postedPerSecond = total / ((performance.now() - startedAt) / 1000);
    const expected = total * (subscribers / conversations);
    let latencies: number[] = [];
    for (const deadline = Date.now() + 15_000; Date.now() < deadline; ) {
      const { received } = await children.ask<{ received: Array<[string, number]> }>({ type: 'collect' }, 'collected');
      latencies = received.filter(([text]) => sent.has(text)).map(([text, at]) => at - sent.get(text)!);
      if (latencies.length >= expected - errors * (subscribers / conversations)) break;
      await new Promise((r) => setTimeout(r, 250));
    }
    const sorted = latencies.sort((a, b) => a - b);
    const round = (n: number) => Math.round(n * 10) / 10;
    rows.push({
      'target/s': rate,
      'posted/s': Math.round(postedPerSecond),
      subscribers: live,
      messages: total,
      errors,
      deliveries: sorted.length,
      expected,
      p50: round(percentile(sorted, 50)),
      p95: round(percentile(sorted, 95)),
      p99: round(percentile(sorted, 99)),
      max: round(sorted.at(-1) ?? 0),
    });
  }
  await children.close();
  printTable(`Delivery POST → subscribers (${subscribers} sockets in another process, ${conversations} conversations × 10)`, rows);
  console.log('delivery latency target: p99 under 100 ms at 200 messages/s');
}

function gc() {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
}

async function memory(server: RunningServer) {
  const clients = 5000;
  const { owner, project, guests } = await seed(server.url, 1);
  const settle = async () => {
    for (let i = 0; i < 3; i++) {
      gc();
      await new Promise((r) => setTimeout(r, 300));
    }
    return process.memoryUsage();
  };
  const before = await settle();
  const children = subscriberProcess();
  const subscribers = Array.from({ length: clients }, () => ({ token: owner, requestId: guests[0].requestId }));
  const { count } = await children.ask<{ count: number }>({ type: 'open', url: server.url, project, subscribers }, 'opened');
  // Subscribing finishes on the server after the client has sent it: give it a moment.
  await new Promise((r) => setTimeout(r, 3000));
  const after = await settle();
  await children.close();
  const perClient = (key: 'rss' | 'heapUsed') => (after[key] - before[key]) / count / 1024;
  printTable(`Memory per idle subscribed websocket client (${count} clients, server process)`, [
    {
      'rss before MB': Math.round(before.rss / 1e6),
      'rss after MB': Math.round(after.rss / 1e6),
      'heap before MB': Math.round(before.heapUsed / 1e6),
      'heap after MB': Math.round(after.heapUsed / 1e6),
      'rss per client KB': Math.round(perClient('rss') * 10) / 10,
      'heap per client KB': Math.round(perClient('heapUsed') * 10) / 10,
    },
  ]);
}

export default async function messagesBench() {
  const part = process.env.BENCH_PART;
  if (!part || part === 'embedded') await embedded();
  if (part === 'embedded') return;
  const env = await productionConfig({ RUN_WORKERS: 'true' });
  const server = await startServer(env.config);
  try {
    if (!part || part === 'throughput') await throughput(server, env.databaseUrl);
    if (!part || part === 'delivery') await delivery(server);
    if (!part || part === 'memory') await memory(server);
  } finally {
    await server.close();
    await env.drop();
  }
}
