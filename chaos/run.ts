// `npm run chaos`: the production deployment under crashes, measured from outside. Two server
// nodes and two worker processes (each its own `node` process) on a fresh PostgreSQL database and
// a redis-server of this run's own (on a free port); clients post messages with Idempotency-Key,
// websocket subscribers on both nodes follow every request, and a webhook receiver that fails 20%
// of attempts checks every signature. Meanwhile Redis, its pub/sub connections, the workers and
// the nodes are killed (SIGKILL) or frozen at random and brought back. Then everything is given
// time to converge, and the run is checked against the database: each subscriber must have every
// message of its request once and in order, the receiver every message once (under one
// webhook-id), no idempotent post may be stored twice, and each conversation's SLA warning and
// breach (a policy whose first-response target falls in the middle of the chaos) must be logged
// exactly once, and each message scheduled to go out during the chaos must be sent exactly once (or
// skipped, with its reason). Prints a table; exits 1 on any loss.
// PostgreSQL is faulted too, never the server itself (it may be shared): the nodes and workers reach
// the run's database through a TCP proxy of this run, which resets every connection and refuses new
// ones for a moment (what a restart or a failover looks like to a client) or stops forwarding (a
// hang); and every backend of the run's database is terminated (pg_terminate_backend, filtered by
// the database's name). A node or worker that exits without being killed by the run fails it.
// The nodes' file store is a small tmpfs of the run's (mounted when the run is root; the phase is
// skipped, and says so, otherwise): uploaders send files throughout, and `disk full` fills it for a
// moment. Every upload must answer 200 or 507 (never 500), and no file may be left on the disk that
// no successful upload stored (a partial write).
//
//   CHAOS_SECONDS (60)      how long the chaos lasts at least
//   CHAOS_POSTS (0)         and until this many posts are answered (faults going on), up to CHAOS_MAX_SECONDS (300)
//   CHAOS_POSTERS (16)      clients posting at once
//   CHAOS_REQUESTS (20)     conversations posted to, each followed by one subscriber per node
//   CHAOS_SCHEDULED (40)    messages scheduled (across the conversations) to be sent during the chaos
//   CHAOS_LAST_FAULT        a fault made once more just as the faults stop ('redis killed', 'worker killed',
//                           'node killed', 'redis frozen', 'pub/sub connections cut', 'postgres backends terminated',
//                           'postgres restarted', 'postgres hung', 'disk full'): the end phase's worst case
//   CHAOS_SETTLE_SECONDS    longest wait, after the faults, for every webhook delivery to be settled (180)
//   DATABASE_URL            PostgreSQL to create the run's database on (postgres://postgres@127.0.0.1:5432/postgres)
import '../src/env-file.js';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { createWriteStream, mkdirSync, mkdtempSync, readdirSync, statSync } from 'node:fs';
import { open as openFile, rm } from 'node:fs/promises';
import { execFileSync } from 'node:child_process';
import { createServer, type AddressInfo } from 'node:net';
import { createServer as createHttpServer } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createClient } from 'graphql-ws';
import { Redis } from 'ioredis';
import pg from 'pg';
import { Webhook } from 'standardwebhooks';
import WebSocket from 'ws';
import { tcpProxy } from '../test/helpers/tcp-proxy.js';

const seconds = Number(process.env.CHAOS_SECONDS ?? 60);
const postTarget = Number(process.env.CHAOS_POSTS ?? 0);
const maxSeconds = Number(process.env.CHAOS_MAX_SECONDS ?? 300);
const posterCount = Number(process.env.CHAOS_POSTERS ?? 16);
const requestCount = Number(process.env.CHAOS_REQUESTS ?? 20);
const scheduledCount = Number(process.env.CHAOS_SCHEDULED ?? 40);
const lastFault = process.env.CHAOS_LAST_FAULT;
const settleSeconds = Number(process.env.CHAOS_SETTLE_SECONDS ?? 180);
const adminUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const root = fileURLToPath(new URL('..', import.meta.url));
const logDir = mkdtempSync(path.join(tmpdir(), 'sp-chaos-'));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const pick = <T>(list: T[]) => list[Math.floor(Math.random() * list.length)];
const log = (...parts: unknown[]) => console.log(`[${new Date().toISOString().slice(11, 19)}]`, ...parts);

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** A child process of the run, started again as often as it is killed; its output goes to a log file. */
class Member {
  child: ChildProcess | null = null;
  starts = 0;
  /** Exits the run did not cause (a crash): each fails the run. */
  unexpectedExits: string[] = [];
  private killing = false;
  constructor(
    readonly name: string,
    private command: string,
    private args: string[],
    private env: NodeJS.ProcessEnv,
  ) {}

  start() {
    this.starts++;
    const out = createWriteStream(path.join(logDir, `${this.name}.log`), { flags: 'a' });
    const child = spawn(this.command, this.args, { cwd: root, env: this.env, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout!.pipe(out);
    child.stderr!.pipe(out);
    this.child = child;
    child.once('exit', (code, signal) => {
      if (!this.killing && !shuttingDown) this.unexpectedExits.push(`${new Date().toISOString().slice(11, 19)} code ${code} signal ${signal}`);
    });
    return child;
  }

  get running() {
    return !!this.child && this.child.exitCode === null && this.child.signalCode === null;
  }

  async kill(signal: NodeJS.Signals = 'SIGKILL') {
    const child = this.child;
    if (!child || !this.running) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    this.killing = true;
    child.kill(signal);
    await exited;
    this.killing = false;
  }
}

/** Set once the run tears its processes down: their exits are expected. */
let shuttingDown = false;

async function until(what: string, check: () => Promise<boolean>, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check().catch(() => false)) return;
    await sleep(200);
  }
  throw new Error(`${what}: not within ${timeoutMs} ms (logs in ${logDir})`);
}

// --- the deployment ------------------------------------------------------------------------------

const databaseName = `sp_chaos_${randomBytes(4).toString('hex')}`;
const admin = new pg.Client({ connectionString: adminUrl });
await admin.connect();
await admin.query(`CREATE DATABASE "${databaseName}"`);
const databaseUrl = Object.assign(new URL(adminUrl), { pathname: `/${databaseName}` }).toString();
const adminAddress = new URL(adminUrl);
// The nodes and workers reach the run's database through a TCP proxy of this run (test/helpers/tcp-proxy.ts):
// `down()` resets every connection and refuses new ones until `up()`, as a restart does; `hang()` stops forwarding.
const pgProxy = await tcpProxy({ host: adminAddress.hostname, port: Number(adminAddress.port || 5432) });
/** What the nodes and workers use: the run's database through the proxy. */
const proxiedDatabaseUrl = Object.assign(new URL(databaseUrl), { port: String(pgProxy.port) }).toString();
// The nodes' file store: a tmpfs of 64 MB, so that `disk full` can fill it without touching the machine's disk.
const filesDir = path.join(logDir, 'files');
mkdirSync(filesDir, { recursive: true });
let diskFaults = true;
try {
  execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64m', 'tmpfs', filesDir], { stdio: 'ignore' });
} catch {
  diskFaults = false;
  log('disk-full phase skipped: a tmpfs cannot be mounted here (the run is not root)');
}
const unmountFiles = () => {
  if (diskFaults) execFileSync('umount', ['-l', filesDir], { stdio: 'ignore' });
  diskFaults = false;
};
const redisPort = await freePort();
const redis = new Member('redis', 'redis-server', ['--port', String(redisPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], process.env);
const ports = [await freePort(), await freePort()];
const env = (extra: Record<string, string>): NodeJS.ProcessEnv => ({
  ...process.env,
  NODE_ENV: 'production',
  LOG_LEVEL: 'warn',
  DATABASE_URL: proxiedDatabaseUrl,
  REDIS_URL: `redis://127.0.0.1:${redisPort}`,
  REDIS_PREFIX: 'chaos',
  JWT_SECRET: 'chaos-secret-chaos-secret-chaos-secret-01',
  BCRYPT_ROUNDS: '4',
  HOST: '127.0.0.1',
  DATA_DIR: path.join(logDir, 'data'),
  FILES_DIR: filesDir,
  RATE_LIMIT_REQUESTS: '1000000000',
  RATE_LIMIT_ANONYMOUS_REQUESTS: '1000000000',
  OUTBOUND_ALLOW_PRIVATE: 'true',
  WEBHOOK_RETRY_SCHEDULE: '500ms,1s,2s,4s,8s,15s,30s',
  WEBHOOK_SWEEP_INTERVAL: '2s',
  WEBHOOK_TIMEOUT_MS: '3000',
  HTTP_MAX_CONNECTIONS_PER_ADDRESS: '0',
  ...extra,
});
const node = (name: string, port: number) =>
  new Member(name, process.execPath, ['--import', 'tsx', 'src/main.ts'], env({ PORT: String(port), RUN_WORKERS: 'false' }));
const nodes = [node('node-a', ports[0]), node('node-b', ports[1])];
const workers = [1, 2].map((i) => new Member(`worker-${i}`, process.execPath, ['--import', 'tsx', 'workers/index.ts'], env({})));
const urls = ports.map((port) => `http://127.0.0.1:${port}`);
// Whatever ends this run (an error included), no process of it stays behind.
process.on('exit', () => {
  for (const member of [redis, ...nodes, ...workers]) if (member.running) member.child!.kill('SIGKILL');
  try {
    unmountFiles();
  } catch {
    // already gone
  }
});
for (const failure of ['uncaughtException', 'unhandledRejection'] as const) {
  process.on(failure, (error) => {
    console.error(error);
    void dropDatabase().finally(() => process.exit(2));
  });
}
async function dropDatabase() {
  shuttingDown = true;
  for (const member of [redis, ...nodes, ...workers]) if (member.running) member.child!.kill('SIGKILL');
  await admin.query(`DROP DATABASE IF EXISTS "${databaseName}" WITH (FORCE)`).catch(() => {});
}

const redisAnswers = async () => {
  const probe = new Redis({ port: redisPort, host: '127.0.0.1', lazyConnect: true, maxRetriesPerRequest: 0, connectTimeout: 500 });
  probe.on('error', () => {});
  try {
    await probe.connect();
    return (await probe.ping()) === 'PONG';
  } finally {
    probe.disconnect();
  }
};
const nodeReady = (i: number) => async () => (await fetch(`${urls[i]}/ready`, { signal: AbortSignal.timeout(2000) })).status === 200;

async function startRedis() {
  redis.start();
  await until('redis-server answers', redisAnswers);
}
async function startNode(i: number) {
  nodes[i].start();
  await until(`${nodes[i].name} ready`, nodeReady(i), 300_000);
}

// --- the webhook receiver ------------------------------------------------------------------------

let signingSecret = '';
const deliveredUnder = new Map<string, Set<string>>();
/** Every attempt the receiver saw, per webhook-id: its answer and when, for the report of a lost delivery. */
const attemptsSeen = new Map<string, string[]>();
const received = { attempts: 0, refused: 0, signatureFailures: 0 };
const maxRefusalsPerDelivery = 5;
const receiver = createHttpServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    received.attempts++;
    const webhookId = String(req.headers['webhook-id']);
    const seen = attemptsSeen.get(webhookId) ?? [];
    attemptsSeen.set(webhookId, seen);
    const at = new Date().toISOString().slice(11, 23);
    // 20% of attempts refused at random, but not one delivery's 6th: the schedule has 8 attempts, so
    // a delivery given up (failed) means 3 attempts failed for a cause of the server's or the
    // network's, not the receiver's dice (8 refusals in a row would happen to about one delivery in
    // 400,000, about once in 80 runs of 5,000 posts, and were not a loss).
    if (Math.random() < 0.2 && seen.filter((answer) => answer.endsWith('500')).length < maxRefusalsPerDelivery) {
      received.refused++;
      seen.push(`${at} 500`);
      res.writeHead(500).end('not now');
      return;
    }
    seen.push(`${at} 200`);
    const body = Buffer.concat(chunks).toString();
    try {
      new Webhook(signingSecret).verify(body, {
        'webhook-id': String(req.headers['webhook-id']),
        'webhook-timestamp': String(req.headers['webhook-timestamp']),
        'webhook-signature': String(req.headers['webhook-signature']),
      });
    } catch {
      received.signatureFailures++;
      res.writeHead(400).end('bad signature');
      return;
    }
    const messageId = String((JSON.parse(body) as { payload: { _id: string } }).payload._id);
    let ids = deliveredUnder.get(messageId);
    if (!ids) deliveredUnder.set(messageId, (ids = new Set()));
    ids.add(String(req.headers['webhook-id']));
    res.writeHead(200).end('ok');
  });
});
await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;

// --- setup ---------------------------------------------------------------------------------------

log(`logs and data in ${logDir}`);
await startRedis();
await startNode(0);
await Promise.all([startNode(1), ...workers.map((w) => w.start())]);

async function call(url: string, method: string, pathname: string, body: unknown, token?: string, headers: Record<string, string> = {}) {
  const res = await fetch(`${url}${pathname}`, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: token } : {}), ...headers },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(15_000),
  });
  return { status: res.status, replayed: res.headers.get('idempotent-replayed') === 'true', body: (await res.json().catch(() => null)) as Record<string, any> };
}
const email = `chaos.${randomBytes(4).toString('hex')}@example.test`;
await call(urls[0], 'POST', '/v3/auth/signup', { email, password: 'chaos chaos chaos' });
const token = (await call(urls[0], 'POST', '/v3/auth/signin', { email, password: 'chaos chaos chaos' })).body.token as string;
const projectId = (await call(urls[0], 'POST', '/v3/projects', { name: 'Chaos' }, token)).body._id as string;
const hook = await call(urls[0], 'POST', `/v3/${projectId}/subscriptions`, { event: 'message.create', target: receiverUrl }, token);
signingSecret = hook.body.signingSecret as string;
// SLA timers fire in the middle of the chaos: no conversation here gets a first response (the owner
// writes every message, as its requester), so each must have one warning and one breach, no more.
const slaSeconds = Math.max(5, Math.round(seconds / 2));
const policy = await call(urls[0], 'POST', `/v3/${projectId}/sla_policies`, { name: 'Chaos', first_response: slaSeconds }, token);
if (policy.status !== 200) throw new Error(`could not create the SLA policy: ${JSON.stringify(policy.body)}`);
const requestIds = Array.from({ length: requestCount }, () => `support-group-${randomUUID()}`);
for (const requestId of requestIds) {
  const opened = await call(urls[0], 'POST', `/v3/${projectId}/requests/${requestId}/messages`, { text: `opening ${requestId}` }, token);
  if (opened.status !== 200) throw new Error(`could not open a request: ${JSON.stringify(opened.body)}`);
}
// Scheduled messages fall due throughout the chaos (from 2 s in to 90% of it), spread over the
// conversations: each must be sent once by whichever worker's sweep claims it, through every fault.
const scheduleFrom = Date.now() + 2000;
const scheduledIds: string[] = [];
for (let k = 0; k < scheduledCount; k++) {
  const at = new Date(scheduleFrom + ((seconds * 900 - 2000) * k) / Math.max(1, scheduledCount - 1));
  const scheduled = await call(urls[k % urls.length], 'POST', `/v3/${projectId}/requests/${requestIds[k % requestIds.length]}/scheduled_messages`, { text: `scheduled ${k}`, scheduled_at: at.toISOString() }, token);
  if (scheduled.status !== 200) throw new Error(`could not schedule a message: ${JSON.stringify(scheduled.body)}`);
  scheduledIds.push(scheduled.body._id as string);
}

// --- subscribers: one per request on each node, resuming with `after` whenever their socket drops --

/** Set once the chaos is over: posters finish their post and stop. */
let postingOver = false;
/** Set once the run is checked: subscribers stop following. */
let followingOver = false;
interface Follower {
  requestId: string;
  node: number;
  lastSeq: number;
  ids: string[];
  outOfOrder: number;
  reconnects: number;
  failuresInRow: number;
}
const followers: Follower[] = requestIds.flatMap((requestId) => [0, 1].map((i) => ({ requestId, node: i, lastSeq: 0, ids: [], outOfOrder: 0, reconnects: 0, failuresInRow: 0 })));
const followQuery = 'subscription($p: String!, $r: String!, $after: Int) { requestMessages(project_id: $p, request_id: $r, after: $after) { seq name message { _id } } }';

async function follow(f: Follower) {
  while (!followingOver) {
    const client = createClient({
      url: `${urls[f.node].replace('http', 'ws')}/graphql`,
      webSocketImpl: WebSocket,
      connectionParams: { authorization: token },
      retryAttempts: 0,
      lazy: true,
      onNonLazyError: () => {},
    });
    await new Promise<void>((resolve) => {
      client.subscribe<{ requestMessages: { seq: number; name: string; message: { _id: string } | null } }>(
        { query: followQuery, variables: { p: projectId, r: f.requestId, after: f.lastSeq } },
        {
          next: (result) => {
            const event = result.data?.requestMessages;
            if (!event || event.name !== 'message.create') return;
            f.failuresInRow = 0;
            const id = event.message?._id ?? `missing at ${event.seq}`;
            if (event.seq > f.lastSeq) f.lastSeq = event.seq;
            else if (!f.ids.includes(id)) f.outOfOrder++;
            f.ids.push(id);
          },
          error: () => resolve(),
          complete: () => resolve(),
        },
      );
    });
    await client.dispose();
    f.reconnects++;
    // Back off while its node is down (restarting takes seconds), so as not to flood the other one's logs.
    await sleep(Math.min(2000, 200 * 2 ** Math.min(f.failuresInRow++, 4)) + Math.random() * 200);
  }
}
const following = followers.map((f) => follow(f));

// --- posters: every post with an Idempotency-Key, retried until it has a final answer -------------

const posts = { answered: 0, replayed: 0, retries: 0, unexpected: 0 };
async function poster(k: number) {
  let target = k % urls.length;
  for (let n = 0; !postingOver; n++) {
    const requestId = pick(requestIds);
    const key = `chaos-${k}-${n}`;
    for (let attempt = 0; ; attempt++) {
      if (attempt) {
        posts.retries++;
        // The retry goes to the other node, as a client behind a load balancer would find it.
        target = (target + 1) % urls.length;
        await sleep(50 + Math.random() * 100);
      }
      const res = await call(urls[target], 'POST', `/v3/${projectId}/requests/${requestId}/messages`, { text: `post ${k}-${n}` }, token, { 'idempotency-key': key }).catch(
        () => null,
      );
      if (!res || res.status >= 500 || res.status === 409 || res.status === 429) continue;
      if (res.status === 200) {
        posts.answered++;
        if (res.replayed) posts.replayed++;
      } else {
        posts.unexpected++;
        log(`unexpected answer ${res.status}: ${JSON.stringify(res.body)}`);
      }
      break;
    }
  }
}

// --- uploaders: files sent throughout; during `disk full` each must answer 507, never 500 ----------

const uploads = { stored: 0, refusedFull: 0, unexpected: 0 };
const uploadRandomBytes = 12 * 1024;
/** Every upload's size: a file of another size on the store is a partial write. */
const uploadSize = Buffer.byteLength(`%PDF-1.4\n${randomBytes(uploadRandomBytes).toString('base64')}`);
async function uploader(k: number) {
  for (let n = 0; !postingOver; n++) {
    const form = new FormData();
    const pdf = Buffer.from(`%PDF-1.4\n${randomBytes(uploadRandomBytes).toString('base64')}`);
    form.append('file', new Blob([new Uint8Array(pdf)], { type: 'application/pdf' }), `upload-${k}-${n}.pdf`);
    const res = await fetch(`${urls[n % urls.length]}/v3/${projectId}/files`, {
      method: 'POST',
      headers: { authorization: token },
      body: form,
      signal: AbortSignal.timeout(15_000),
    }).catch(() => null);
    // No answer (a node killed) or a moment's outage: tried again, like the posts.
    if (!res || res.status === 503 || res.status === 429) {
      await res?.arrayBuffer().catch(() => null);
      await sleep(100);
      continue;
    }
    const body = await res.text();
    if (res.status === 200) uploads.stored++;
    else if (res.status === 507) uploads.refusedFull++;
    else {
      uploads.unexpected++;
      log(`unexpected upload answer ${res.status}: ${body.slice(0, 300)}`);
    }
    // Uploads are a sideline to the posts: a few a second, and they do not fill the store by themselves.
    await sleep(400);
  }
}
/** Every file under the store, with its size. */
const filesOnDisk = (dir = filesDir): Array<{ file: string; size: number }> =>
  readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    const stat = statSync(full);
    return stat.isDirectory() ? filesOnDisk(full) : [{ file: full, size: stat.size }];
  });

// --- the chaos -----------------------------------------------------------------------------------

const faults: Record<string, number> = {};
/** A node being restarted (starting takes seconds): the other one serves meanwhile, and is not killed too. */
let nodeRestarting: Promise<void> | null = null;
const actions: Record<string, () => Promise<void>> = {
  'worker killed': async () => {
    const worker = pick(workers.filter((w) => w.running));
    if (!worker) return;
    await worker.kill();
    await sleep(500 + Math.random() * 1500);
    worker.start();
  },
  'node killed': async () => {
    const i = Math.floor(Math.random() * 2);
    await nodes[i].kill();
    nodeRestarting = (async () => {
      await sleep(500 + Math.random() * 1500);
      await startNode(i);
    })().finally(() => (nodeRestarting = null));
  },
  'redis killed': async () => {
    await redis.kill();
    await sleep(500 + Math.random() * 1500);
    await startRedis();
  },
  'redis frozen': async () => {
    redis.child?.kill('SIGSTOP');
    await sleep(1000 + Math.random() * 2000);
    redis.child?.kill('SIGCONT');
  },
  'postgres backends terminated': async () => {
    await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()', [databaseName]);
  },
  'postgres restarted': async () => {
    pgProxy.down();
    await sleep(1000 + Math.random() * 2000);
    pgProxy.up();
  },
  'postgres hung': async () => {
    pgProxy.hang();
    await sleep(1000 + Math.random() * 3000);
    pgProxy.resume();
  },
  'disk full': async () => {
    if (!diskFaults) return;
    // Fills the store's tmpfs to the last byte, holds it full a moment, then frees it.
    const filler = path.join(filesDir, 'filler');
    const handle = await openFile(filler, 'w');
    try {
      const chunk = Buffer.alloc(256 * 1024);
      for (;;) {
        try {
          await handle.write(chunk);
        } catch {
          break;
        }
      }
      await sleep(1500 + Math.random() * 2000);
    } finally {
      await handle.close();
      await rm(filler, { force: true });
    }
  },
  'pub/sub connections cut': async () => {
    const control = new Redis({ port: redisPort, host: '127.0.0.1', maxRetriesPerRequest: 1 });
    control.on('error', () => {});
    await control.call('CLIENT', 'KILL', 'TYPE', 'pubsub').catch(() => null);
    control.disconnect();
  },
};

const started = Date.now();
log(`chaos for ${seconds} s${postTarget ? ` and until ${postTarget} posts (at most ${maxSeconds} s)` : ''}: ${posterCount} posters, ${followers.length} subscribers, webhook receiver failing 20%`);
const posting = [...Array.from({ length: posterCount }, (_, k) => poster(k)), ...(diskFaults ? [uploader(0), uploader(1)] : [])];
const chaosGoesOn = () => {
  const elapsed = Date.now() - started;
  return elapsed < seconds * 1000 || (posts.answered < postTarget && elapsed < maxSeconds * 1000);
};
while (chaosGoesOn()) {
  await sleep(1500 + Math.random() * 3000);
  // Not a second node while one restarts: clients always have a node to go to.
  const allowed = Object.keys(actions).filter((action) => !(action === 'node killed' && nodeRestarting) && (action !== 'disk full' || diskFaults));
  // Each kind of fault at least once before any is made twice (a short run would otherwise miss some).
  const unmade = allowed.filter((action) => !faults[action]);
  const name = pick(unmade.length ? unmade : allowed);
  faults[name] = (faults[name] ?? 0) + 1;
  log(`${name} (${posts.answered} posts so far)`);
  await actions[name]().catch((error: Error) => log(`${name} failed: ${error.message}`));
}
if (lastFault) {
  if (!actions[lastFault]) throw new Error(`CHAOS_LAST_FAULT: no fault named ${lastFault} (${Object.keys(actions).join(', ')})`);
  await nodeRestarting;
  faults[lastFault] = (faults[lastFault] ?? 0) + 1;
  log(`${lastFault}, the last fault (CHAOS_LAST_FAULT) (${posts.answered} posts so far)`);
  await actions[lastFault]().catch((error: Error) => log(`${lastFault} failed: ${error.message}`));
}

// --- convergence ---------------------------------------------------------------------------------

const chaosMs = Date.now() - started;
log('chaos over: waiting for posts in flight, then for subscribers and webhooks to catch up');
await nodeRestarting;
if (!redis.running) await startRedis();
pgProxy.up();
pgProxy.resume();
redis.child?.kill('SIGCONT');
for (const [i, n] of nodes.entries()) if (!n.running) await startNode(i);
for (const w of workers) if (!w.running) w.start();
postingOver = true;
await Promise.all(posting);
const postsEnded = Date.now();

const db = new pg.Client({ connectionString: databaseUrl });
await db.connect();
const messages = (await db.query<{ id: string; request_id: string; text: string }>(`SELECT "id", "request_id", "text" FROM "Message" WHERE "id_project" = $1`, [projectId])).rows;
const byRequest = new Map<string, Set<string>>();
for (const m of messages) {
  if (!byRequest.has(m.request_id)) byRequest.set(m.request_id, new Set());
  byRequest.get(m.request_id)!.add(m.id);
}
const missing = (f: Follower) => [...(byRequest.get(f.requestId) ?? [])].filter((id) => !f.ids.includes(id)).length;
const converge = async (check: () => boolean, ms: number) => {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline && !check()) await sleep(500);
};
await converge(() => followers.every((f) => missing(f) === 0), 120_000);

// Webhooks: waited for until every message's delivery is settled in the database (succeeded, or
// failed: given up), not for a fixed time; a delivery still pending at the deadline counts as lost,
// reported apart. The bound covers the worst legitimate case: a job lost with Redis is queued again
// by the sweep once overdue by WEBHOOK_TIMEOUT_MS + 60 s, then the rest of the retry schedule.
interface DeliveryState {
  messageId: string;
  eventId: string | null;
  /** Whether the webhooks' cursor has passed the event. */
  dispatched: boolean | null;
  deliveryId: string | null;
  status: string | null;
  nextAttemptAt: Date | null;
  attempts: Array<{ at: string; attempt: number | null; statusCode: number | null; reason?: string | null; durationMs: number }> | null;
}
const deliveryStates = async () =>
  (
    await db.query<DeliveryState>(
      `SELECT m."id" AS "messageId", e."id" AS "eventId", e."seq" <= c."seq" AS "dispatched", d."id" AS "deliveryId", d."status", d."nextAttemptAt", d."attempts"
       FROM "Message" m
       LEFT JOIN "DomainEvent" e ON e."id_project" = m."id_project" AND e."name" = 'message.create' AND e."subject" = m."id"
       LEFT JOIN "WebhookDelivery" d ON d."eventId" = e."id"
       LEFT JOIN "EventCursor" c ON c."consumer" = 'webhooks' AND c."id_project" = m."id_project"
       WHERE m."id_project" = $1`,
      [projectId],
    )
  ).rows;
let states = await deliveryStates();
const settled = (list: DeliveryState[]) => list.every((d) => d.status === 'succeeded' || d.status === 'failed');
for (let polls = 0; !settled(states) && Date.now() - postsEnded < settleSeconds * 1000; polls++) {
  if (polls % 10 === 0) {
    const pending = states.filter((d) => d.status === 'pending');
    const due = pending.map((d) => d.nextAttemptAt?.getTime() ?? 0).sort((a, b) => a - b);
    const at = (ms: number | undefined) => (ms ? new Date(ms).toISOString().slice(11, 19) : '-');
    log(`webhook deliveries: ${pending.length} pending (next attempts due ${at(due[0])} to ${at(due.at(-1))}), ${states.filter((d) => !d.deliveryId).length} not created yet`);
  }
  await sleep(1000);
  states = await deliveryStates();
}
const settleMs = Date.now() - postsEnded;
log(`webhook deliveries ${settled(states) ? 'settled' : 'NOT all settled'} ${Math.round(settleMs / 1000)} s after the posts ended`);
const lostDeliveries = states.filter((d) => !deliveredUnder.has(d.messageId));
// Every attempt the workers recorded, by outcome: failures the receiver never saw (timeouts,
// connections) show here beside its refusals.
const attemptOutcomes = (
  await db.query<{ outcome: string; n: string }>(
    `SELECT coalesce(a->>'statusCode', a->>'reason') AS outcome, count(*) AS n
     FROM "WebhookDelivery" d, jsonb_array_elements(d."attempts") a WHERE d."id_project" = $1 GROUP BY 1 ORDER BY 2 DESC`,
    [projectId],
  )
).rows.map((r) => `${r.outcome} ${r.n}`).join(', ');
const mostAttempts = Math.max(0, ...states.map((d) => d.attempts?.length ?? 0));
const lostWhy = (d: DeliveryState) => (!d.eventId ? 'no event' : !d.deliveryId ? (d.dispatched ? 'no delivery (event dispatched)' : 'no delivery (event not dispatched)') : d.status!);

// SLA timers: every conversation's warning and breach, waited for (bounded) then counted once each.
const slaEvents = async () =>
  (
    await db.query<{ request_id: string; name: string; n: string }>(
      `SELECT "payload"->>'request_id' AS request_id, "name", count(*) AS n FROM "DomainEvent"
       WHERE "id_project" = $1 AND "name" IN ('sla.warning', 'sla.breach') GROUP BY 1, 2`,
      [projectId],
    )
  ).rows;
let slaRows = await slaEvents();
for (const deadline = Date.now() + 120_000; slaRows.filter((r) => r.name === 'sla.breach').length < requestIds.length && Date.now() < deadline; ) {
  await sleep(1000);
  slaRows = await slaEvents();
}
const slaCount = (requestId: string, name: string) => Number(slaRows.find((r) => r.request_id === requestId && r.name === name)?.n ?? 0);
const slaLost = requestIds.reduce((sum, id) => sum + (slaCount(id, 'sla.warning') ? 0 : 1) + (slaCount(id, 'sla.breach') ? 0 : 1), 0);
const slaDuplicated = requestIds.reduce((sum, id) => sum + Math.max(0, slaCount(id, 'sla.warning') - 1) + Math.max(0, slaCount(id, 'sla.breach') - 1), 0);

// Scheduled messages: every one due during the chaos, waited for (bounded) until none is still
// scheduled; then each must be `sent` with exactly one message pointing back at it
// (attributes.scheduled_message_id), or `skipped` with a reason. Anything else is lost; a second
// message for one is a duplicate.
const scheduledRows = async () =>
  (
    await db.query<{ id: string; status: string; reason: string | null; messageId: string | null; messages: string; late: number | null }>(
      `SELECT s."id", s."status", s."reason", s."messageId",
              (SELECT count(*) FROM "Message" m WHERE m."id_project" = s."id_project" AND m."attributes"->>'scheduled_message_id' = s."id") AS messages,
              (SELECT extract(epoch FROM min(m."createdAt") - s."scheduled_at")::float FROM "Message" m
                WHERE m."id_project" = s."id_project" AND m."attributes"->>'scheduled_message_id' = s."id") AS late
       FROM "ScheduledMessage" s WHERE s."id_project" = $1`,
      [projectId],
    )
  ).rows;
let scheduledState = await scheduledRows();
for (const deadline = Date.now() + 120_000; scheduledState.some((r) => r.status === 'scheduled') && Date.now() < deadline; ) {
  await sleep(1000);
  scheduledState = await scheduledRows();
}
const scheduledOf = (id: string) => scheduledState.find((r) => r.id === id);
const scheduledSent = scheduledIds.filter((id) => scheduledOf(id)?.status === 'sent' && Number(scheduledOf(id)!.messages) >= 1).length;
const scheduledSkipped = scheduledIds.filter((id) => scheduledOf(id)?.status === 'skipped' && scheduledOf(id)!.reason && Number(scheduledOf(id)!.messages) === 0);
const scheduledLost = scheduledIds.filter((id) => {
  const row = scheduledOf(id);
  if (!row) return true;
  if (row.status === 'sent') return Number(row.messages) === 0;
  return !(row.status === 'skipped' && row.reason && Number(row.messages) === 0);
});
const scheduledDuplicated = scheduledIds.reduce((sum, id) => sum + Math.max(0, Number(scheduledOf(id)?.messages ?? 0) - 1), 0);
// How late they went out: the faults (a worker killed, PostgreSQL down or hung) delay a send, never drop it.
const lateness = scheduledState.map((r) => r.late).filter((v): v is number => v != null).sort((a, b) => a - b);
for (const id of scheduledLost) log(`scheduled message lost: ${id} ${JSON.stringify(scheduledOf(id) ?? 'no row')}`);

// --- the table -----------------------------------------------------------------------------------

const duplicatedEvents = followers.reduce((sum, f) => sum + (f.ids.length - new Set(f.ids).size), 0);
const idempotentDuplicates = (await db.query<{ n: string }>(
  `SELECT coalesce(sum(c - 1), 0) AS n FROM (SELECT count(*) AS c FROM "Message" WHERE "id_project" = $1 GROUP BY "text" HAVING count(*) > 1) d`,
  [projectId],
)).rows[0].n;
// A file on the store of another size than the uploads' is a partial write (the filler is gone). A
// whole file more than the uploads answered 200 is one whose answer a killed node never sent (the
// client sent it again): no loss, reported apart.
// Writes a killed node left unfinished under `.partial/` are not on the store (no path names them);
// the next start removes them once old.
const everyFile = diskFaults ? filesOnDisk() : [];
const unfinished = everyFile.filter((f) => f.file.startsWith(path.join(filesDir, '.partial') + path.sep));
const stored = everyFile.filter((f) => !unfinished.includes(f));
const partialFiles = stored.filter((f) => f.size !== uploadSize);
for (const f of partialFiles) log(`partial file on the store: ${f.file} (${f.size} of ${uploadSize} bytes)`);
const result = {
  'posts answered': posts.answered,
  'posts retried (same key)': posts.retries,
  'posts answered from a kept answer': posts.replayed,
  'posts with an unexpected answer': posts.unexpected,
  'messages stored': messages.length,
  'idempotent posts duplicated': Number(idempotentDuplicates),
  'events expected (subscribers x messages)': followers.reduce((sum, f) => sum + (byRequest.get(f.requestId)?.size ?? 0), 0),
  'events delivered': followers.reduce((sum, f) => sum + new Set(f.ids).size, 0),
  'events lost': followers.reduce((sum, f) => sum + missing(f), 0),
  'events duplicated': duplicatedEvents,
  'events out of order': followers.reduce((sum, f) => sum + f.outOfOrder, 0),
  'subscriber reconnects': followers.reduce((sum, f) => sum + f.reconnects, 0),
  'webhook attempts received (20% refused)': received.attempts,
  'webhook attempts refused by the receiver': received.refused,
  'webhook attempts recorded, by outcome': attemptOutcomes,
  'webhook attempts of the delivery with most': mostAttempts,
  'webhook deliveries lost': lostDeliveries.length,
  '  of which pending at the deadline': lostDeliveries.filter((d) => d.status === 'pending').length,
  '  of which failed (given up)': lostDeliveries.filter((d) => d.status === 'failed').length,
  '  of which never created': lostDeliveries.filter((d) => !d.deliveryId).length,
  's from the last post to every delivery settled (or the deadline)': Math.round(settleMs / 1000),
  'webhook deliveries duplicated under another id': [...deliveredUnder.values()].filter((ids) => ids.size > 1).length,
  'webhook signature failures': received.signatureFailures,
  [`SLA warnings and breaches expected (${slaSeconds} s first response)`]: requestIds.length * 2,
  'SLA warnings and breaches lost': slaLost,
  'SLA warnings and breaches duplicated': slaDuplicated,
  'scheduled messages expected (due during the chaos)': scheduledIds.length,
  'scheduled messages sent once': scheduledSent,
  'scheduled messages skipped (with a reason)': scheduledSkipped.length ? `${scheduledSkipped.length} (${[...new Set(scheduledSkipped.map((id) => scheduledOf(id)!.reason))].join(', ')})` : 0,
  's a scheduled message was sent after its time (median / most)': lateness.length ? `${lateness[Math.floor(lateness.length / 2)].toFixed(1)} / ${lateness.at(-1)!.toFixed(1)}` : '-',
  'scheduled messages lost': scheduledLost.length,
  'scheduled messages duplicated': scheduledDuplicated,
  'nodes and workers exited (not killed by the run)': [...nodes, ...workers].reduce((sum, m) => sum + m.unexpectedExits.length, 0),
  'uploads stored': diskFaults ? uploads.stored : 'skipped (no tmpfs)',
  'uploads answered 507 (disk full)': uploads.refusedFull,
  'uploads with an unexpected answer': uploads.unexpected,
  'whole files stored beyond the uploads answered (answer lost with a killed node)': Math.max(0, stored.length - partialFiles.length - uploads.stored),
  'partial files left on the store': partialFiles.length,
  'unfinished writes of killed nodes (under .partial/)': unfinished.length,
};
console.log(`\n## Chaos: ${Math.round(chaosMs / 1000)} s, faults: ${Object.entries(faults).map(([name, n]) => `${name} ${n}`).join(', ')}`);
console.table(Object.entries(result).map(([measure, value]) => ({ measure, value })));
const failed =
  result['idempotent posts duplicated'] +
    result['posts with an unexpected answer'] +
    result['events lost'] +
    result['events duplicated'] +
    result['events out of order'] +
    result['webhook deliveries lost'] +
    result['webhook deliveries duplicated under another id'] +
    result['webhook signature failures'] +
    result['SLA warnings and breaches lost'] +
    result['SLA warnings and breaches duplicated'] +
    result['scheduled messages lost'] +
    result['scheduled messages duplicated'] +
    result['nodes and workers exited (not killed by the run)'] +
    result['uploads with an unexpected answer'] +
    result['partial files left on the store'] >
  0;
if (lostDeliveries.length) {
  // Each lost delivery as the database and the receiver saw it, and its job in Redis: diagnosable from CI's output.
  const { Queue } = await import('bullmq');
  const deliverQueue = new Queue('webhooks.deliver', { connection: { host: '127.0.0.1', port: redisPort, maxRetriesPerRequest: 1 }, prefix: 'chaos' });
  deliverQueue.on('error', () => {});
  console.log(`\n## Webhook deliveries lost (${lostDeliveries.length})`);
  for (const d of lostDeliveries.slice(0, 20)) {
    // BullMQ answers 'unknown' for a job it does not have (gone with Redis, or never queued).
    const state = d.deliveryId ? await deliverQueue.getJobState(d.deliveryId).catch((error: Error) => `not read (${error.message})`) : 'none';
    const job = state === 'unknown' ? 'none in Redis' : state;
    console.log(
      `- message ${d.messageId}: ${lostWhy(d)}; event ${d.eventId ?? '-'} dispatched ${d.dispatched ? 'yes' : 'no'}; ` +
        `delivery ${d.deliveryId ?? '-'}${d.status === 'pending' ? `, next attempt at ${d.nextAttemptAt?.toISOString() ?? 'none'}` : ''}; job ${job}`,
    );
    for (const a of d.attempts ?? []) console.log(`    attempt ${a.attempt ?? 'redelivery'} at ${a.at}: ${a.statusCode ?? a.reason} (${a.durationMs} ms)`);
    console.log(`    receiver saw: ${(d.deliveryId && attemptsSeen.get(d.deliveryId)?.join(', ')) || 'nothing'}`);
  }
  if (lostDeliveries.length > 20) console.log(`- and ${lostDeliveries.length - 20} more`);
  await deliverQueue.close().catch(() => {});
}
for (const member of [...nodes, ...workers]) for (const exit of member.unexpectedExits) console.log(`${member.name} exited unasked at ${exit} (its log: ${path.join(logDir, `${member.name}.log`)})`);
console.log(failed ? `FAILED (logs in ${logDir})` : 'PASSED: nothing lost, duplicated or out of order');

// --- teardown ------------------------------------------------------------------------------------

followingOver = true;
shuttingDown = true;
await Promise.all([...nodes, ...workers].map((m) => m.kill('SIGTERM')));
await redis.kill();
await db.end();
// A failed run keeps its database, so the lost deliveries' rows can be read after it.
if (failed) console.log(`database kept for inspection: ${databaseUrl} (DROP DATABASE "${databaseName}" when done)`);
else await dropDatabase();
await admin.end();
unmountFiles();
pgProxy.close();
receiver.close();
await Promise.race([Promise.all(following), sleep(5000)]);
process.exit(failed ? 1 : 0);
