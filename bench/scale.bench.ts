// `npm run bench scale`: what a console does all day, on a big project made by `npm run seed`
// (src/cli/seed.ts, run in its own process before the server starts), production mode and, at a
// tenth of the size, embedded mode with the targets doubled. The server runs in its own process, as
// deployed (its event loop is not the clients'). One client, calls one after another (p50/p95/p99
// of `BENCH_SCALE_ROUNDS` rounds each), then POSTs while 200 agents read at once: 20 a second (the
// target), then as fast as 4 clients can (saturation).
// Sizes (production): BENCH_SCALE_CONVERSATIONS (20,000), BENCH_SCALE_MESSAGES (200,000),
// BENCH_SCALE_LEADS (10,000), BENCH_SCALE_AGENTS (200); embedded a tenth of each (agents 20).
// BENCH_SCALE_POST_SECONDS (10) each POST case, BENCH_SCALE_READERS (200) the agents reading meanwhile; BENCH_SCALE_MODES=production,embedded (both by default); BENCH_SCALE_SEEDED and
// BENCH_SCALE_DATABASE_URL measure a database seeded before (see below). Every figure is printed beside its
// target with the load average: the machine is shared.
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Config } from '../src/config.js';
import { createInfrastructure } from '../src/infra/index.js';
import { createLogger } from '../src/infra/logger.js';
import { startServer } from '../src/server.js';
import { runScript } from '../test/helpers/script-process.js';
import { benchConfig, benchNodeEnv, benchRedisUrl, productionConfig } from './environment.js';
import { json, percentile, printTable, runAtRate, runLoad } from './lib.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const rounds = Number(process.env.BENCH_SCALE_ROUNDS ?? 20);
/** How long each POST case runs (the steady one's p99 is over 20 × this many posts). */
const postSeconds = Number(process.env.BENCH_SCALE_POST_SECONDS ?? 10);
/** Agents reading while the posts go (200: the target's case; 0 shows what the posts cost alone). */
const readersCount = Number(process.env.BENCH_SCALE_READERS ?? 200);
const size = (name: string, fallback: number) => Number(process.env[`BENCH_SCALE_${name}`] ?? fallback);

interface Seeded {
  projectId: string;
  owner: string;
  agent: string;
  password: string;
  seconds: number;
  messagesPerSecond: number;
  /** What the seed wrote (its JSON line says). */
  conversations?: number;
  messages?: number;
  leads?: number;
}

function seed(env: Record<string, string>, sizes: Record<string, number>): Seeded {
  const args = ['--import', 'tsx', path.join(root, 'src/cli/seed.ts'), ...Object.entries(sizes).flatMap(([k, v]) => [`--${k}`, String(v)])];
  const childEnv: Record<string, string | undefined> = { ...process.env, ...env };
  // Embedded: no DATABASE_URL, so the seed opens the PGlite database under DATA_DIR.
  if (!env.DATABASE_URL) delete childEnv.DATABASE_URL;
  const result = spawnSync(process.execPath, args, { cwd: root, env: childEnv, encoding: 'utf8', maxBuffer: 1 << 24 });
  if (result.status !== 0) throw new Error(`seed failed: ${result.stdout}${result.stderr}`);
  process.stdout.write(result.stdout.split('\n').filter((l) => !l.startsWith('{')).join('\n'));
  const line = result.stdout.trim().split('\n').reverse().find((l) => l.startsWith('{"projectId"'));
  return JSON.parse(line!) as Seeded;
}

async function measure(mode: 'production' | 'embedded') {
  const factor = mode === 'production' ? 1 : 2;
  const tenth = mode === 'production' ? 1 : 10;
  const sizes = {
    conversations: Math.round(size('CONVERSATIONS', 20_000) / tenth),
    messages: Math.round(size('MESSAGES', 200_000) / tenth),
    leads: Math.round(size('LEADS', 10_000) / tenth),
    agents: Math.max(2, Math.round(size('AGENTS', 200) / tenth)),
    months: 12,
  };
  const logLevel = { LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'silent' };
  // BENCH_SCALE_SEEDED (the seed's JSON line) with BENCH_SCALE_DATABASE_URL: measure a database
  // `npm run seed` already filled (production mode), instead of seeding a fresh one (10 minutes at
  // the full size here). The database is kept.
  const reused = mode === 'production' && process.env.BENCH_SCALE_SEEDED ? (JSON.parse(process.env.BENCH_SCALE_SEEDED) as Seeded) : null;
  const production = reused
    ? { config: benchConfig({ ...logLevel, DATABASE_URL: process.env.BENCH_SCALE_DATABASE_URL!, REDIS_URL: benchRedisUrl, REDIS_PREFIX: `spscale${Date.now()}` }), databaseUrl: process.env.BENCH_SCALE_DATABASE_URL!, drop: async () => {} }
    : mode === 'production'
      ? await productionConfig(logLevel)
      : null;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'sp-scale-'));
  const config = production?.config ?? benchConfig({ DATA_DIR: dataDir, ...logLevel });
  // The schema first (a server started and closed), then the seed, then the server that is measured.
  await (await startServer(config)).close();
  const seeded = reused ?? seed(production ? { DATABASE_URL: production.databaseUrl } : { DATA_DIR: dataDir }, sizes);
  const long = await longestConversation(config, seeded.projectId);
  // The server in its own process (the embedded database on disk, where the seed wrote it).
  const node = runScript('bench/socket-node.ts', benchNodeEnv(config, { ...logLevel, BENCH_NODE_ON_DISK: '1' }));
  try {
    const url = await node.until(() => node.lines().find((line) => typeof line.url === 'string')?.url as string | undefined, 300_000);
    const base = `${url}/v3/${seeded.projectId}`;
    const signin = async (email: string) => (await json(`${url}/v3/auth/signin`, 'POST', undefined, { email, password: seeded.password })).token as string;
    const owner = await signin(seeded.owner);
    const agent = await signin(seeded.agent);
    const get = (p: string, token = agent) => json(`${base}${p}`, 'GET', token);
    const open = '100,200';
    const cases: Array<{ group: string; name: string; call: () => Promise<unknown>; target: number }> = [];
    const add = (group: string, name: string, target: number, call: () => Promise<unknown>) => cases.push({ group, name, call, target: target * factor });
    add('inbox', 'Mine (open, assignee=me)', 50, () => get(`/requests?status=${open}&assignee=me`));
    add('inbox', 'Unassigned (open, assignee=none)', 50, () => get(`/requests?status=${open}&assignee=none`, owner));
    add('inbox', 'All open', 50, () => get(`/requests?status=${open}`, owner));
    add('inbox', 'Closed', 50, () => get(`/requests?status=1000`, owner));
    add('inbox', 'All open, tag billing', 50, () => get(`/requests?status=${open}&tags=billing`, owner));
    add('inbox', 'All open, channel chat21', 50, () => get(`/requests?status=${open}&channel=chat21`, owner));
    add('inbox', 'All open, sort last_activity', 50, () => get(`/requests?status=${open}&sortField=last_activity`, owner));
    add('inbox', 'All open, sort waiting_since', 50, () => get(`/requests?status=${open}&sortField=waiting_since&direction=1`, owner));
    add('inbox', 'Closed, page 50', 50, () => get(`/requests?status=1000&page=50`, owner));
    add('conversation', 'request', 50, () => get(`/requests/${long.request_id}`, owner));
    add('conversation', 'messages, 50', 50, () => get(`/requests/${long.request_id}/messages?limit=50`, owner));
    add('conversation', 'timeline', 50, () => get(`/requests/${long.request_id}/timeline`, owner));
    add('conversation', "contact's conversations", 50, () => get(`/requests?status=all&lead=${long.leadId}`, owner));
    for (const q of ['order', 'order refund', 'kettle', 'refu', 'parcel delivery']) add('search', `"${q}"`, 50, () => get(`/search?q=${encodeURIComponent(q)}`, owner));
    for (const p of ['requests/waiting', 'requests/count', 'requests/aggregate/status', 'requests/aggregate/day', 'requests/aggregate/month', 'requests/aggregate/hours', 'requests/duration', 'requests/satisfaction', 'messages/count', 'messages/aggregate/day', 'requests/aggregate/hourOfWeek', 'requests/satisfaction/distribution', 'requests/firstResponse/agents'])
      add('analytics', p, 500, () => get(`/analytics/${p}`, owner));

    const rows: Record<string, unknown>[] = [];
    let misses = 0;
    for (const c of cases) {
      await c.call();
      const times: number[] = [];
      for (let i = 0; i < rounds; i++) {
        const t0 = performance.now();
        await c.call();
        times.push(performance.now() - t0);
      }
      times.sort((a, b) => a - b);
      const p95 = percentile(times, 95);
      if (p95 >= c.target) misses++;
      rows.push({ group: c.group, call: c.name, p50: +percentile(times, 50).toFixed(1), p95: +p95.toFixed(1), p99: +percentile(times, 99).toFixed(1), target_p95: c.target, ok: p95 < c.target ? 'PASS' : 'FAIL' });
      // As it goes: a run at this size takes minutes, in embedded mode tens of them.
      console.log(`${mode} ${c.group} ${c.name}: p50 ${percentile(times, 50).toFixed(1)} p95 ${p95.toFixed(1)} ms (target ${c.target})`);
    }
    const shown = reused ? { conversations: reused.conversations ?? 0, messages: reused.messages ?? 0, leads: reused.leads ?? 0 } : sizes;
    printTable(`${mode}: ${shown.conversations.toLocaleString('en')} conversations, ${shown.messages.toLocaleString('en')} messages, ${shown.leads.toLocaleString('en')} leads (seeded in ${seeded.seconds} s, ${seeded.messagesPerSecond} msg/s overall); load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}`, rows);

    // POST while 200 agents read (the inbox's Mine view, back to back): first at a steady 20 posts
    // a second (the 200 agents each answering every 10 s: the target's case), then as fast as 4
    // clients can post (saturation: how earlier runs measured it, for comparison).
    let posting = true;
    let firstError: string | undefined;
    const readers = (async () => {
      await Promise.all(Array.from({ length: readersCount }, async () => {
        while (posting) await get(`/requests?status=${open}&assignee=me`).catch(() => undefined);
      }));
    })();
    const run = Date.now().toString(36);
    // One conversation in 20 posts is new (routing gives it to one of the agents); `opening`: every one.
    const post = (worker: number, i: number, opening = false) =>
      json(`${base}/requests/support-group-scale-${run}-${worker}-${opening ? `new-${i}` : Math.floor(i / 20)}/messages`, 'POST', owner, { text: 'a reply about the parcel' }).then(
        () => true,
        (error) => {
          firstError ??= String(error).slice(0, 300);
          return false;
        },
      );
    const steady = await runAtRate({ rate: 20, durationMs: postSeconds * 1000, warmupMs: 1_000, task: (i) => post(i % 4, Math.floor(i / 4)) });
    const saturated = await runLoad({ concurrency: 4, durationMs: postSeconds * 1000, warmupMs: 1_000, task: (worker, i) => post(4 + worker, i) });
    posting = false;
    await readers;
    // New conversations only, 8 at once and no readers: how routing's decisions wait for each other.
    const opening = await runLoad({ concurrency: 8, durationMs: postSeconds * 1000, warmupMs: 1_000, task: (worker, i) => post(8 + worker, i, true) });
    if (firstError) console.log(`${mode}: a POST failed: ${firstError}`);
    const postTarget = 100 * factor;
    const met = steady.p99 < postTarget && !steady.errors && steady.requests > 0;
    if (!met) misses++;
    const load = loadavg().map((l) => l.toFixed(2)).join(' ');
    console.log(`${mode}: POST at 20/s while ${readersCount} agents read: ${steady.requests} posts (${steady.errors} failed), p50 ${steady.p50} ms, p99 ${steady.p99} ms (target p99 < ${postTarget} ms): ${met ? 'PASS' : 'FAIL'} (load average ${load})`);
    console.log(`${mode}: POST as fast as 4 clients can, while ${readersCount} agents read: ${saturated.requests} posts (${saturated.errors} failed), ${saturated.throughput} posts/s, p50 ${saturated.p50} ms, p99 ${saturated.p99} ms (saturation, no target)`);
    console.log(`${mode}: a new conversation each POST, as fast as 8 clients can (routing among the agents): ${opening.requests} posts (${opening.errors} failed), ${opening.throughput} posts/s, p50 ${opening.p50} ms, p99 ${opening.p99} ms (no target)`);
    return misses === 0;
  } finally {
    node.child.kill('SIGTERM');
    await new Promise((resolve) => node.child.once('exit', resolve));
    await production?.drop();
  }
}

/** The conversation with the most messages, and its lead: what `npm run seed` made longest. */
async function longestConversation(config: Config, projectId: string) {
  const infra = await createInfrastructure(config, { logger: createLogger('silent') });
  try {
    const [long] = await infra.database.prisma.$queryRawUnsafe<Array<{ request_id: string; leadId: string }>>(
      // Counted in one pass over the messages (a count per request, correlated, never finished on PGlite).
      `SELECT r.request_id, r."leadId" FROM "Request" r JOIN (
         SELECT request_id, count(*) AS n FROM "Message" WHERE id_project = $1 GROUP BY request_id ORDER BY n DESC LIMIT 1
       ) m ON m.request_id = r.request_id WHERE r.id_project = $1`,
      projectId,
    );
    return long;
  } finally {
    await infra.close();
  }
}

export default async function () {
  const modes = (process.env.BENCH_SCALE_MODES ?? 'production,embedded').split(',') as Array<'production' | 'embedded'>;
  const results = [];
  for (const mode of modes) results.push(await measure(mode));
  console.log(`scale bench: ${results.every(Boolean) ? 'PASS' : 'FAIL'}`);
}
