// Live sockets at scale (issue 39): thousands of websocket connections on a node, the way teams
// use them. Each project (a team) has a few agents' consoles following `projectEvents` and many
// visitors' widgets each following their own conversation (`requestMessages`); agents answer at
// RATE messages a second, spread over the conversations. For every message, the time from the
// moment its POST was sent to the moment each of its subscribers (the visitor and the project's
// agents) received it; the server's memory per connection; then the same load over two nodes
// sharing Redis, half of the sockets on each, every post made on the first.
//
// Production mode (PostgreSQL + Redis), the server(s) in their own processes (their memory is
// theirs alone); the clients run in this process, on the same two cores, so the latencies include
// this process's own work of receiving 1,000+ frames a second.
//
// SOCKETS (10000), PROJECTS (50), AGENTS per project (4), RATE (200/s), SECONDS (20), POOL (12
// PostgreSQL connections per node) change it;
// NODES=1 or NODES=2 runs one scenario only. Each node reports its event loop while posts go, and
// with BENCH_PROFILE=<directory> writes its CPU profile of that span there.
// Targets: delivery p99 < 100 ms, nothing lost.
import { readFileSync } from 'node:fs';
import { createClient, type Client } from 'graphql-ws';
import pg from 'pg';
import WebSocket from 'ws';
import { runScript, type ScriptProcess } from '../test/helpers/script-process.js';
import { benchNodeEnv, productionConfig } from './environment.js';
import { json, percentile, printTable } from './lib.js';

const sockets = Number(process.env.SOCKETS ?? 10_000);
const projects = Number(process.env.PROJECTS ?? 50);
const agentsPerProject = Number(process.env.AGENTS ?? 4);
const rate = Number(process.env.RATE ?? 200);
const seconds = Number(process.env.SECONDS ?? 20);
/**
 * PostgreSQL connections of each node (DATABASE_POOL_SIZE). The default of a node on this 2-core
 * machine is 4, which carried about 50–70 agents' first answers a second here when each was a
 * transaction of nine statements (now written by the batched post statement); see docs/scale.md.
 */
const pool = process.env.POOL ?? '12';
/** Which scenarios run: one node, two nodes, or both (the default "1,2"). */
const nodeCounts = (process.env.NODES ?? '1,2').split(',').map(Number);
const targetP99Ms = 100;

interface Team {
  projectId: string;
  ownerToken: string;
  /** Each visitor: its token and its conversation. */
  visitors: Array<{ token: string; requestId: string }>;
}

/** Runs `work` over `items`, `width` at a time. */
async function inParallel<T>(items: T[], width: number, work: (item: T, index: number) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(width, items.length) }, async () => {
      while (next < items.length) {
        const index = next++;
        await work(items[index], index);
      }
    }),
  );
}

function rssBytes(pid: number) {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((l) => l.startsWith('VmRSS:'))!;
  return Number(line.replace(/\D+/g, '')) * 1024;
}

async function startNode(env: Record<string, string>): Promise<{ node: ScriptProcess; url: string }> {
  const node = runScript('bench/socket-node.ts', env);
  const url = await node.until(() => node.lines().find((line) => typeof line.url === 'string')?.url as string | undefined, 180_000);
  return { node, url };
}

async function seedTeams(url: string): Promise<Team[]> {
  const visitorsPerProject = Math.max(1, Math.floor(sockets / projects) - agentsPerProject);
  const teams: Team[] = [];
  for (let p = 0; p < projects; p++) {
    const email = `sockets-${Date.now()}-${p}@bench.test`;
    await json(`${url}/v3/auth/signup`, 'POST', undefined, { email, password: 'bench password 1' });
    const { token } = await json(`${url}/v3/auth/signin`, 'POST', undefined, { email, password: 'bench password 1' });
    const projectId = (await json(`${url}/v3/projects`, 'POST', token, { name: `Team ${p}` }))._id as string;
    teams.push({ projectId, ownerToken: token, visitors: [] });
  }
  const visitors = teams.flatMap((team) => Array.from({ length: visitorsPerProject }, () => team));
  // Setup is not measured: a call the loaded node answers 503 (Retry-After) is made again.
  const retried = async <T>(call: () => Promise<T>): Promise<T> => {
    for (let attempt = 1; ; attempt++) {
      try {
        return await call();
      } catch (error) {
        if (attempt >= 5 || !/: 503 /.test((error as Error).message)) throw error;
        await new Promise((resolve) => setTimeout(resolve, 1000));
      }
    }
  };
  await inParallel(visitors, 16, async (team, i) => {
    const { token } = await retried(() => json(`${url}/v3/auth/signinAnonymously`, 'POST', undefined, { id_project: team.projectId, firstname: `Visitor ${i}` }));
    const requestId = `support-group-${team.projectId}-${i.toString(36)}`;
    await retried(() => json(`${url}/v3/${team.projectId}/requests/${requestId}/messages`, 'POST', token, { text: 'hello, I need help' }));
    team.visitors.push({ token, requestId });
  });
  return teams;
}

interface Socket {
  client: Client;
  ready: Promise<void>;
}

function open(url: string, token: string): Socket {
  let connected!: () => void;
  let failed!: (error: unknown) => void;
  const ready = new Promise<void>((resolve, reject) => ((connected = resolve), (failed = reject)));
  const client = createClient({
    url: `${url.replace(/^http/, 'ws')}/graphql`,
    webSocketImpl: WebSocket,
    connectionParams: { authorization: token },
    lazy: false,
    retryAttempts: 0,
    onNonLazyError: (error) => failed(error),
    on: { connected: () => connected() },
  });
  return { client, ready };
}

/** When each POST was sent, by the marker its text starts with, and by its message id once answered. */
type Sent = Map<string, number>;

interface Deliveries {
  /** Receipts: the marker (visitors) or message id (agents) received, and when. */
  receipts: Array<[string, number]>;
  expected: number;
  errors: number;
}

/** Opens every socket (each team's agents and visitors, over `urls` in turn) and subscribes it. */
async function connectAll(teams: Team[], urls: string[], sent: Sent, deliveries: Deliveries) {
  const opened: Socket[] = [];
  const receive = (key: string | undefined) => {
    if (key) deliveries.receipts.push([key, performance.now()]);
  };
  const jobs: Array<() => Promise<void>> = [];
  let n = 0;
  for (const team of teams) {
    for (let a = 0; a < agentsPerProject; a++) {
      const url = urls[n++ % urls.length];
      jobs.push(async () => {
        const socket = open(url, team.ownerToken);
        opened.push(socket);
        await socket.ready;
        socket.client.subscribe(
          { query: 'subscription($p: String!) { projectEvents(project_id: $p) { name subject } }', variables: { p: team.projectId } },
          {
            next: (r) => {
              const event = (r.data as { projectEvents?: { name: string; subject: string } } | null)?.projectEvents;
              if (event?.name === 'message.create') receive(event.subject);
              if (r.errors) deliveries.errors++;
            },
            error: () => deliveries.errors++,
            complete: () => {},
          },
        );
      });
    }
    for (const visitor of team.visitors) {
      const url = urls[n++ % urls.length];
      jobs.push(async () => {
        const socket = open(url, visitor.token);
        opened.push(socket);
        await socket.ready;
        socket.client.subscribe(
          {
            query: 'subscription($p: String!, $r: String!) { requestMessages(project_id: $p, request_id: $r) { message { text } } }',
            variables: { p: team.projectId, r: visitor.requestId },
          },
          {
            next: (r) => {
              const text = (r.data as { requestMessages?: { message?: { text?: string } | null } } | null)?.requestMessages?.message?.text;
              receive(text?.split(' ')[0]);
              if (r.errors) deliveries.errors++;
            },
            error: () => deliveries.errors++,
            complete: () => {},
          },
        );
      });
    }
  }
  await inParallel(jobs, 100, (job) => job());
  return opened;
}

async function post(url: string, teams: Team[], sent: Sent, deliveries: Deliveries, fanout: number) {
  const total = rate * seconds;
  const started = performance.now();
  const posts: Promise<void>[] = [];
  let failures = 0;
  const reasons = new Map<string, number>();
  for (let i = 0; i < total; i++) {
    const due = started + (i * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
    const team = teams[i % teams.length];
    const visitor = team.visitors[Math.floor(Math.random() * team.visitors.length)];
    const marker = `m${i.toString(36)}`;
    sent.set(marker, performance.now());
    deliveries.expected += fanout;
    // The visitor's widget knows the message by its text's first word, the agents' consoles by
    // the id the project's event names (known here once the POST answers).
    const at = performance.now();
    posts.push(
      json(`${url}/v3/${team.projectId}/requests/${visitor.requestId}/messages`, 'POST', team.ownerToken, {
        text: `${marker} here is the answer`,
      }).then(
        (message: { _id: string }) => void sent.set(message._id, at),
        (error: Error) => {
          failures++;
          const reason = error.message.replace(/^POST \S+: /, '').slice(0, 160);
          reasons.set(reason, (reasons.get(reason) ?? 0) + 1);
        },
      ),
    );
  }
  await Promise.all(posts);
  for (const [reason, count] of reasons) console.log(`post failed ${count}×: ${reason}`);
  return { posted: total, failures, postSeconds: (performance.now() - started) / 1000 };
}

/** Waits until no event consumer's cursor is behind its project's events (bounded), three polls in a row. */
async function consumersCaughtUp(databaseUrl: string, timeoutMs: number) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const started = performance.now();
  let behind = -1;
  try {
    for (let quiet = 0; quiet < 3 && performance.now() - started < timeoutMs; ) {
      const { rows } = await client.query<{ behind: number }>(
        `SELECT count(*)::int AS behind FROM "EventCursor" c JOIN "Project" p ON p."id" = c."id_project" WHERE c."seq" < p."eventSeq"`,
      );
      behind = rows[0].behind;
      quiet = behind === 0 ? quiet + 1 : 0;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  } finally {
    await client.end();
  }
  return { seconds: (performance.now() - started) / 1000, behind };
}

async function waitForDeliveries(deliveries: Deliveries, timeoutMs: number) {
  const deadline = performance.now() + timeoutMs;
  while (deliveries.receipts.length < deliveries.expected && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
}

/** Each receipt's time from its POST's sending. */
function latencies(deliveries: Deliveries, sent: Sent) {
  const out: number[] = [];
  for (const [key, at] of deliveries.receipts) {
    const from = sent.get(key);
    if (from !== undefined) out.push(at - from);
  }
  return out.sort((a, b) => a - b);
}

async function scenario(name: string, nodes: number) {
  const env = await productionConfig();
  const started: Array<{ node: ScriptProcess; url: string }> = [];
  let opened: Socket[] = [];
  try {
    // One address and a few tokens far past a client's limits: the limiters run, and never refuse.
    const base = benchNodeEnv(env.config, { DATABASE_POOL_SIZE: pool });
    for (let i = 0; i < nodes; i++) started.push(await startNode(base));
    const urls = started.map((s) => s.url);
    const seedStarted = performance.now();
    const teams = await seedTeams(urls[0]);
    console.log(`seeded ${projects} projects and their visitors' conversations in ${((performance.now() - seedStarted) / 1000).toFixed(1)} s`);
    const connections = teams.reduce((sum, t) => sum + agentsPerProject + t.visitors.length, 0);
    const rssBefore = started.map((s) => rssBytes(s.node.child.pid!));
    const sent: Sent = new Map();
    const deliveries: Deliveries = { receipts: [], expected: 0, errors: 0 };
    const connectStarted = performance.now();
    opened = await connectAll(teams, urls, sent, deliveries);
    const connectSeconds = (performance.now() - connectStarted) / 1000;
    // Let the subscriptions settle (their starting points read) before measuring memory and load.
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const rssAfter = started.map((s) => rssBytes(s.node.child.pid!));
    // And the nodes' event consumers read the seeding's events (e-mail notifications of 10,000 new
    // conversations, webhooks, the assistant): measured while still at it, the posts shared the
    // node with a backlog a steady team does not have.
    const backlog = await consumersCaughtUp(env.databaseUrl, 300_000);
    console.log(`event consumers caught up with the seeding in ${backlog.seconds.toFixed(1)} s (${backlog.behind} cursors still behind)`);
    // Each node measures its event loop (and, with BENCH_PROFILE, its CPU profile) while posts go.
    const spans = started.map((s) => s.node.lines().length);
    for (const s of started) s.node.child.kill('SIGUSR2');
    const benchCpu = process.cpuUsage();
    const benchFrom = performance.now();
    const { posted, failures, postSeconds } = await post(urls[0], teams, sent, deliveries, 1 + agentsPerProject);
    await waitForDeliveries(deliveries, 15_000);
    const benchUsed = process.cpuUsage(benchCpu);
    for (const s of started) s.node.child.kill('SIGUSR2');
    for (const [i, s] of started.entries()) {
      const span = await s.node.until(() => s.node.lines().slice(spans[i]).find((line) => line.span)?.span, 60_000);
      console.log(`node ${i + 1} while posting: ${JSON.stringify(span)}`);
    }
    console.log(`bench process while posting: ${Math.round(((benchUsed.user + benchUsed.system) / 1000 / (performance.now() - benchFrom)) * 100)}% CPU`);
    const sorted = latencies(deliveries, sent);
    const perConnection = (rssAfter.reduce((a, b) => a + b, 0) - rssBefore.reduce((a, b) => a + b, 0)) / connections;
    const p99 = percentile(sorted, 99);
    printTable(name, [
      {
        nodes,
        pool,
        connections,
        'connect s': connectSeconds.toFixed(1),
        'posts/s': (posted / postSeconds).toFixed(0),
        'post errors': failures,
        deliveries: `${sorted.length} of ${deliveries.expected}`,
        'p50 ms': percentile(sorted, 50).toFixed(1),
        'p95 ms': percentile(sorted, 95).toFixed(1),
        'p99 ms': p99.toFixed(1),
        'target p99 ms': targetP99Ms,
        'KB per connection': (perConnection / 1024).toFixed(1),
        'node RSS MB': rssAfter.map((r) => (r / 1048576).toFixed(0)).join(' + '),
        result: p99 < targetP99Ms && sorted.length === deliveries.expected && !failures && !deliveries.errors ? 'PASS' : 'FAIL',
      },
    ]);
  } catch (error) {
    for (const s of started) console.error(`node output (last 4,000 characters):\n${s.node.output().slice(-4000)}`);
    throw error;
  } finally {
    for (const socket of opened) void socket.client.dispose();
    for (const s of started) await s.node.kill();
    await env.drop();
  }
}

export default async function run() {
  console.log(`load average at start: ${readFileSync('/proc/loadavg', 'utf8').trim()}`);
  if (nodeCounts.includes(1)) await scenario(`${sockets} sockets on one node, ${rate} messages/s for ${seconds} s`, 1);
  if (nodeCounts.includes(2)) await scenario(`${sockets} sockets over two nodes (Redis pub/sub), ${rate} messages/s for ${seconds} s`, 2);
}
