// The conversations CSV over 100,000 conversations in one project, production mode (PostgreSQL +
// Redis), over real HTTP: the server's RSS must grow by less than 50 MB while it streams them.
//
// The server runs in a process of its own, started as `npm start` starts it (the same V8 flags),
// and its RSS is read from /proc: the seeding (straight into the table, from this process) and the
// reading client are not counted. Before the measured export the server has served a smaller one,
// as a node that has been up serves the first export of a big project: memory a first request of
// any kind commits (code, the young generation) is not the export's.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { openDatabase } from '../src/infra/database.js';
import { createLogger } from '../src/infra/logger.js';
import { nodeProcessEnv } from '../test/helpers/script-process.js';
import { productionConfig } from './environment.js';

const conversations = Number(process.env.BENCH_CONVERSATIONS ?? 100_000);
const warmUp = Math.min(10_000, Math.floor(conversations / 10));
const targetMb = 50;

/** The resident set of process `pid`, in bytes (VmRSS). */
function rssOf(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) * 1024 : 0;
}

/** The node flags of package.json's `start` script (`node <flags> --import tsx src/main.ts`). */
function startFlags(): string {
  const start = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).scripts.start as string;
  const match = /\bnode\s+(.*?)\s*--import tsx src\/main\.ts/.exec(start);
  if (!match) throw new Error(`package.json's start script no longer reads "node <flags> --import tsx src/main.ts": ${start}`);
  return match[1];
}

export default async function bench() {
  const env = await productionConfig();
  // The V8 flags `npm start` gives node (read from package.json, so the two cannot drift apart);
  // BENCH_SERVER_FLAGS to try others, e.g. '' for V8's defaults.
  const flags = (process.env.BENCH_SERVER_FLAGS ?? startFlags()).split(' ').filter(Boolean);
  const server = spawn(process.execPath, [...flags, '--import', 'tsx', 'test/helpers/node-process.ts'], {
    env: nodeProcessEnv(env.config, {
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      RATE_LIMIT_REQUESTS: '1000000000',
      RATE_LIMIT_ANONYMOUS_REQUESTS: '1000000000',
      // Only `flags`: not the ones `npm run bench` gives this process through NODE_OPTIONS.
      NODE_OPTIONS: '',
    }),
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const db = await openDatabase({ databaseUrl: env.databaseUrl, poolSize: 4, pgliteDir: '', logger: createLogger('silent') });
  try {
    const url = await new Promise<string>((resolve, reject) => {
      createInterface({ input: server.stdout! }).on('line', (line) => {
        if (line.startsWith('{"url"')) resolve(JSON.parse(line).url as string);
      });
      server.once('exit', (code) => reject(new Error(`the server exited with ${code}`)));
    });
    const call = async (method: string, path: string, body?: unknown, token?: string) => {
      const res = await fetch(`${url}${path}`, {
        method,
        headers: { 'content-type': 'application/json', ...(token ? { authorization: token } : {}) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      if (res.status !== 200) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
      return res.json();
    };
    await call('POST', '/v3/auth/signup', { email: 'owner@bench.test', password: 'bench password' });
    const { token, user } = await call('POST', '/v3/auth/signin', { email: 'owner@bench.test', password: 'bench password' });
    const project = await call('POST', '/v3/projects', { name: 'Exports bench' }, token);
    // Seeded straight into the table: the benchmark measures the export, not 100,000 creates.
    const now = Date.now();
    for (let start = 0; start < conversations; start += 2000) {
      const rows = Array.from({ length: Math.min(2000, conversations - start) }, (_, k) => {
        const i = start + k;
        const createdAt = new Date(now - i * 60_000);
        return {
          id_project: project._id,
          request_id: `support-group-bench-${i}`,
          ticket_id: i + 1,
          first_text: `question number ${i}`,
          status: i % 3 ? 1000 : 200,
          participatingAgents: [user._id],
          tags: [{ tag: i % 2 ? 'billing' : 'shipping' }],
          rating: i % 5,
          first_response_at: new Date(createdAt.getTime() + 30_000),
          closed_at: i % 3 ? new Date(createdAt.getTime() + 600_000) : null,
          createdBy: user._id,
          createdAt,
        };
      });
      await db.prisma.request.createMany({ data: rows });
    }
    // Statistics, as autovacuum keeps them for a table that grew over months: without them the
    // planner reads the whole project for each page (it expects a handful of rows), and whether
    // autovacuum got to the table before the exports made them 10 s or 50 s long from run to run.
    await db.prisma.$executeRawUnsafe('ANALYZE "Request"');

    /** Reads the whole CSV; answers its rows, bytes and seconds. */
    const exportCsv = async (query = '') => {
      const started = performance.now();
      const res = await fetch(`${url}/v3/${project._id}/analytics/conversations.csv${query}`, { headers: { authorization: token } });
      if (res.status !== 200) throw new Error(`export: ${res.status} ${await res.text()}`);
      let bytes = 0;
      let lines = 0;
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        bytes += chunk.length;
        for (const byte of chunk) if (byte === 10) lines++;
      }
      return { rows: lines - 1, bytes, seconds: (performance.now() - started) / 1000 };
    };
    // The newest `warmUp` conversations (one a minute).
    const warm = await exportCsv(`?from=${new Date(now - warmUp * 60_000).toISOString()}`);

    /** One whole export, with the server's RSS before it and its peak during it. */
    const measuredExport = async (label: string) => {
      const before = rssOf(server.pid!);
      let peak = before;
      const sampler = setInterval(() => (peak = Math.max(peak, rssOf(server.pid!))), 20);
      const measured = await exportCsv();
      clearInterval(sampler);
      const growthMb = Math.round(((peak - before) / 1_048_576) * 10) / 10;
      return {
        export: label,
        conversations,
        rows: measured.rows,
        'MB sent': Math.round(measured.bytes / 1_048_576),
        seconds: Math.round(measured.seconds * 10) / 10,
        'server RSS before MB': Math.round(before / 1_048_576),
        'server RSS growth MB': growthMb,
        target: `< ${targetMb} MB: ${growthMb < targetMb ? 'met' : 'MISSED'}`,
      };
    };
    // The first whole export also pays for V8 growing its young generation to the size the
    // allocation rate asks for (up to --max-semi-space-size); the second shows what an export holds.
    const first = await measuredExport(`first (after a ${warm.rows}-row warm-up)`);
    const second = await measuredExport('second, the same');
    console.log(`server flags: ${flags.join(' ') || '(none)'}`);
    console.table([first, second]);
  } finally {
    server.kill('SIGTERM');
    await new Promise((resolve) => server.once('exit', resolve));
    await db.close();
    await env.drop();
  }
}
