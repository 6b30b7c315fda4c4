// Where closing a conversation spends its time (issue 37: the learning keeps up with 50 closes a
// second): every SQL statement the node sends while conversations are closed, the close's own and
// its consumers' (the assistant's learner, the knowledge gaps, webhooks…), grouped by statement.
// Production mode, the server in this process. `npx tsx bench/close-profile.ts [closes] [per second]`.
import '../src/env-file.js';
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { startServer } from '../src/server.js';
import { productionConfig } from './environment.js';
import { json, percentile, postgresCpuMs } from './lib.js';
import { startTrace, stopTrace } from './statement-trace.js';

const total = Number(process.argv[2] ?? 300);
const perSecond = Number(process.argv[3] ?? 50);

const production = await productionConfig();
const server = await startServer(production.config, { inMemory: true });
try {
  const url = server.url;
  const email = `close.${Date.now()}@example.test`;
  await json(`${url}/v3/auth/signup`, 'POST', undefined, { email, password: 'bench password 1' });
  const { token } = await json(`${url}/v3/auth/signin`, 'POST', undefined, { email, password: 'bench password 1' });
  const projectId = (await json(`${url}/v3/projects`, 'POST', token, { name: 'Close profile' }))._id as string;
  const visitor = (await json(`${url}/v3/auth/signinAnonymously`, 'POST', undefined, { id_project: projectId, firstname: 'Visitor' })).token as string;
  const ids = Array.from({ length: total }, (_, i) => `support-group-close-${i}`);
  for (const requestId of ids) {
    await json(`${url}/v3/${projectId}/requests/${requestId}/messages`, 'POST', visitor, { text: `where is my parcel number ${requestId}?` });
    await json(`${url}/v3/${projectId}/requests/${requestId}/messages`, 'POST', token, { text: 'It left our warehouse this morning; the courier brings it tomorrow.' });
  }
  const db = server.app.infra.database.prisma;
  const answered: number[] = [];
  const statuses = new Map<number, number>();
  const session = new Session();
  if (process.env.PROFILE_CPU) {
    session.connect();
    await session.post('Profiler.enable');
    await session.post('Profiler.start');
  }
  startTrace();
  const cpu = process.cpuUsage();
  const database = new URL(production.databaseUrl).pathname.slice(1);
  const pgCpu = postgresCpuMs(database) ?? 0;
  const started = performance.now();
  await Promise.all(
    ids.map(async (requestId, i) => {
      const due = started + (i * 1000) / perSecond;
      if (due > performance.now()) await new Promise((resolve) => setTimeout(resolve, due - performance.now()));
      const sent = performance.now();
      const res = await fetch(`${url}/v3/${projectId}/requests/${requestId}/close`, { method: 'PUT', headers: { authorization: token } });
      await res.arrayBuffer();
      answered.push(performance.now() - sent);
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
    }),
  );
  const closing = (performance.now() - started) / 1000;
  const nodeCpu = process.cpuUsage(cpu);
  const pgCpuUsed = ((postgresCpuMs(database) ?? 0) - pgCpu) / 1000;
  if (process.env.PROFILE_CPU) {
    const { profile } = await session.post('Profiler.stop');
    writeFileSync(process.env.PROFILE_CPU, JSON.stringify(profile));
    session.disconnect();
  }
  // The consumers' share: until every close is learned.
  const deadline = Date.now() + 120_000;
  while ((await db.assistantExample.count({ where: { id_project: projectId } })) < (statuses.get(200) ?? 0) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const learned = (performance.now() - started) / 1000;
  const statements = stopTrace();
  answered.sort((a, b) => a - b);
  console.log(`${total} closes sent at ${perSecond}/s: answers ${JSON.stringify(Object.fromEntries(statuses))}, made ${(total / closing).toFixed(1)}/s, ` +
    `answer p50 ${percentile(answered, 50).toFixed(0)} p95 ${percentile(answered, 95).toFixed(0)} ms; all learned after ${learned.toFixed(1)} s`);
  console.log(`CPU while closing: this process ${((nodeCpu.user + nodeCpu.system) / 1e6 / total * 1000).toFixed(1)} ms a close, PostgreSQL ${(pgCpuUsed / total * 1000).toFixed(1)} ms a close (${closing.toFixed(1)} s)`);
  if (process.env.PROFILE_SEQUENCE) for (const st of statements) console.log(`    ${st.ms.toFixed(1)} ms  ${st.text}`);
  const groups = new Map<string, number[]>();
  for (const s of statements) groups.set(s.text, [...(groups.get(s.text) ?? []), s.ms]);
  const rows = [...groups].map(([text, xs]) => ({ text, perClose: xs.length / total, sum: xs.reduce((a, b) => a + b, 0), p50: percentile([...xs].sort((a, b) => a - b), 50) }));
  rows.sort((a, b) => b.sum - a.sum);
  console.log(`${statements.length} statements (${(statements.length / total).toFixed(1)} per close), ${(rows.reduce((a, r) => a + r.sum, 0) / 1000).toFixed(1)} s of statement time`);
  for (const r of rows.slice(0, 40)) console.log(`  ${r.perClose.toFixed(2)}× sum ${r.sum.toFixed(0)} ms p50 ${r.p50.toFixed(1)}  ${r.text}`);
} finally {
  await server.close();
  await production.drop();
}
process.exit(0);
