// Where a common-words search spends its time, stage by stage, inside one request (issue 39):
// every SQL statement (timed at the driver), the search service's own part, JSON serialisation,
// and the rest (GraphQL execution: resolvers, loaders' JavaScript, rendering). Production mode.
// `npx tsx bench/search-profile.ts [rounds]`; PROFILE_CPU=1 also writes a CPU profile;
// PROFILE_CASE=mixed profiles the bench's other project and queries instead.
import '../src/env-file.js';
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { startServer } from '../src/server.js';
import { productionConfig } from './environment.js';
import { startTrace, stopTrace } from './statement-trace.js';
import { json, percentile } from './lib.js';
import { queries as mixedQueries, seed, seedCommonWords, twoWordQueries } from './search.bench.js';

let stringifyMs = 0;
let tracing = false;
const stringify = JSON.stringify;
JSON.stringify = function (...args: Parameters<typeof JSON.stringify>) {
  const started = performance.now();
  const out = stringify.apply(JSON, args);
  if (tracing && out && out.length > 5_000) stringifyMs += performance.now() - started;
  return out;
} as typeof JSON.stringify;

const rounds = Number(process.argv[2] ?? 5);
// PROFILE_CASE=mixed: the bench's other project (100,000 messages in 2,000 requests) and its queries.
const mixed = process.env.PROFILE_CASE === 'mixed';
const queries = mixed ? mixedQueries : twoWordQueries;

const production = await productionConfig();
const server = await startServer(production.config, { inMemory: true });
try {
  const account = async (name: string) => {
    const email = `profile.${name}.${Date.now()}@example.test`;
    await json(`${server.url}/v3/auth/signup`, 'POST', undefined, { email, password: 'bench password 1', firstname: name });
    const signin = await json(`${server.url}/v3/auth/signin`, 'POST', undefined, { email, password: 'bench password 1' });
    return { email, token: signin.token as string, userId: signin.user._id as string };
  };
  const seeded = mixed ? await seed(server) : null;
  const owner = seeded?.owner ?? (await account('owner'));
  const agent = seeded?.agent ?? (await account('agent'));
  const common = seeded ? { projectId: seeded.projectId } : await seedCommonWords(server, owner, agent);
  const services = server.app.services as unknown as { search: { search: (...a: unknown[]) => Promise<unknown> } };
  let serviceMs = 0;
  const search = services.search.search.bind(services.search);
  services.search.search = async (...a: unknown[]) => {
    const started = performance.now();
    try {
      return await search(...a);
    } finally {
      serviceMs += performance.now() - started;
    }
  };

  const session = new Session();
  for (const [who, token] of [['owner', owner.token], ['agent', agent.token]] as const) {
    for (const q of queries) await json(`${server.url}/v3/${common.projectId}/search?q=${encodeURIComponent(q)}`, 'GET', token);
    const stages: Record<string, number[]> = { total: [], service: [], sql: [], stringify: [], rest: [] };
    const byStatement = new Map<string, number[]>();
    let bytes = 0;
    if (process.env.PROFILE_CPU) {
      session.connect();
      await session.post('Profiler.enable');
      await session.post('Profiler.start');
    }
    for (let round = 0; round < rounds; round++) {
      for (const q of queries) {
        startTrace();
        tracing = true;
        serviceMs = 0;
        stringifyMs = 0;
        const started = performance.now();
        const response = await fetch(`${server.url}/v3/${common.projectId}/search?q=${encodeURIComponent(q)}`, { headers: { authorization: token } });
        bytes = (await response.text()).length;
        const total = performance.now() - started;
        const statements = stopTrace();
        tracing = false;
        const sql = statements.reduce((sum, s) => sum + s.ms, 0);
        stages.total.push(total);
        stages.service.push(serviceMs);
        stages.sql.push(sql);
        stages.stringify.push(stringifyMs);
        stages.rest.push(total - serviceMs - stringifyMs); // execution and loaders
        for (const s of statements) byStatement.set(s.text, [...(byStatement.get(s.text) ?? []), s.ms]);
      }
    }
    if (process.env.PROFILE_CPU) {
      const { profile } = await session.post('Profiler.stop');
      writeFileSync(`/tmp/search-${who}.cpuprofile`, stringify(profile));
      session.disconnect();
    }
    const summary = (xs: number[]) => {
      const sorted = [...xs].sort((a, b) => a - b);
      return `p50 ${percentile(sorted, 50).toFixed(1)} p95 ${percentile(sorted, 95).toFixed(1)} mean ${(xs.reduce((a, b) => a + b, 0) / xs.length).toFixed(1)}`;
    };
    console.log(`\n${who}: ${rounds * queries.length} searches, answer ${bytes} bytes`);
    for (const [stage, xs] of Object.entries(stages)) console.log(`  ${stage.padEnd(10)} ${summary(xs)}`);
    console.log('  statements per search (count, p50/p95/mean ms):');
    for (const [text, xs] of byStatement) console.log(`    ${(xs.length / (rounds * queries.length)).toFixed(1)}× ${summary(xs)}  ${text}`);
  }
} finally {
  await server.close();
  await production.drop();
}
process.exit(0);
