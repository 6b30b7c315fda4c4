// Where a console call on a big project spends its time (issue 39): each call of `npm run bench
// scale`, made against a database `npm run seed` already filled, with every SQL statement it sent
// (timed at the driver). Production mode, the server in this process.
// `DATABASE_URL=… npx tsx bench/scale-profile.ts '<seed JSON line>' [filter]`: the seed's last line
// names the project and the sign-ins; `filter` (a regular expression) keeps the calls whose path matches it.
import '../src/env-file.js';
import { startServer } from '../src/server.js';
import { benchConfig, benchRedisUrl } from './environment.js';
import { json, percentile } from './lib.js';
import { startTrace, stopTrace } from './statement-trace.js';

const seeded = JSON.parse(process.argv[2]) as { projectId: string; owner: string; agent: string; password: string };
const filter = process.argv[3] ?? '';
const rounds = Number(process.env.PROFILE_ROUNDS ?? 3);
const server = await startServer(benchConfig({ DATABASE_URL: process.env.DATABASE_URL!, REDIS_URL: benchRedisUrl, REDIS_PREFIX: `spprofile${Date.now()}` }));
try {
  const base = `${server.url}/v3/${seeded.projectId}`;
  const signin = async (email: string) => (await json(`${server.url}/v3/auth/signin`, 'POST', undefined, { email, password: seeded.password })).token as string;
  const owner = await signin(seeded.owner);
  const agent = await signin(seeded.agent);
  const open = '100,200';
  const db = server.app.infra.database.prisma;
  const [long] = await db.$queryRawUnsafe<Array<{ request_id: string; leadId: string }>>(
    `SELECT r.request_id, r."leadId" FROM "Request" r WHERE r.id_project = $1 ORDER BY (SELECT count(*) FROM "Message" m WHERE m.id_project = r.id_project AND m.request_id = r.request_id) DESC LIMIT 1`,
    seeded.projectId,
  );
  const calls: Array<[string, string]> = [
    [`/requests/${long.request_id}/messages?limit=50`, owner],
    [`/requests?status=all&lead=${long.leadId}`, owner],
    [`/requests?status=${open}&assignee=me`, agent],
    [`/requests?status=${open}&assignee=none`, owner],
    [`/requests?status=${open}`, owner],
    [`/requests?status=1000`, owner],
    [`/requests?status=${open}&tags=billing`, owner],
    [`/requests?status=${open}&sortField=last_activity`, owner],
    [`/requests?status=${open}&sortField=waiting_since&direction=1`, owner],
    [`/search?q=order`, owner],
    [`/search?q=kettle`, owner],
    [`/search?q=parcel%20delivery`, owner],
    [`/analytics/messages/count`, owner],
    [`/analytics/messages/aggregate/day`, owner],
    [`/analytics/requests/firstResponse/agents`, owner],
    [`/analytics/requests/duration`, owner],
  ];
  // The posts of the bench's write case: a new conversation (routing among the agents), then a reply in it.
  const stamp = Date.now();
  const posts: Array<[string, string, (i: number) => string]> = [
    ['POST new conversation', owner, (i) => `/requests/support-group-profile-${stamp}-${i}/messages`],
    ['POST reply', owner, () => `/requests/support-group-profile-${stamp}-0/messages`],
  ];
  for (const [name, token, pathOf] of posts.filter(([p]) => new RegExp(filter).test(p))) {
    await json(`${base}${pathOf(0)}`, 'POST', token, { text: 'a reply about the parcel' });
    await profile(name, (i) => json(`${base}${pathOf(i + 1)}`, 'POST', token, { text: 'a reply about the parcel' }));
  }
  for (const [path, token] of calls.filter(([p]) => new RegExp(filter).test(p))) {
    await json(`${base}${path}`, 'GET', token);
    await profile(path, () => json(`${base}${path}`, 'GET', token));
  }
} finally {
  await server.close();
}
process.exit(0);

async function profile(name: string, call: (i: number) => Promise<unknown>) {
  const totals: number[] = [];
  let statements: ReturnType<typeof stopTrace> = [];
  for (let i = 0; i < rounds; i++) {
    startTrace();
    const t0 = performance.now();
    await call(i);
    totals.push(performance.now() - t0);
    statements = stopTrace();
  }
  console.log(`\n${name}: p50 ${percentile(totals.sort((a, b) => a - b), 50).toFixed(1)} ms, ${statements.length} statements`);
  for (const s of statements) console.log(`  at ${s.at.toFixed(1).padStart(6)} ${s.ms.toFixed(1).padStart(7)} ms  ${s.text}`);
}
