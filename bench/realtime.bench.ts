// Resuming subscriptions: forty `projectEvents(after: 0)` subscriptions replay a whole history of
// 3,000 events at once, production mode (PostgreSQL + Redis), while /health is called every 20 ms.
// Target: the slowest /health answer during the replays under 500 ms (before replays were paged
// and paced it waited over a second; 3.6 s at 100 x 6,186). test/realtime-replay.test.ts checks
// that the node answers during the replay; how long each answer waited is measured here.
import { startServer } from '../src/server.js';
import { connect } from '../test/helpers/realtime.js';
import { productionConfig } from './environment.js';
import { json, percentile, printTable } from './lib.js';

const history = 3000;
const sockets = 4;
const perSocket = 10;
const targetMs = 500;

export default async function run() {
  const env = await productionConfig({ REALTIME_REPLAY_MAX_EVENTS: String(history + 1000) });
  const server = await startServer(env.config);
  const clients: Array<ReturnType<typeof connect>> = [];
  try {
    const email = `replay-${Date.now()}@bench.test`;
    await json(`${server.url}/v3/auth/signup`, 'POST', undefined, { email, password: 'bench password 1' });
    const { token } = await json(`${server.url}/v3/auth/signin`, 'POST', undefined, { email, password: 'bench password 1' });
    const projectId = (await json(`${server.url}/v3/projects`, 'POST', token, { name: 'Replayed' }))._id as string;

    // The history, committed as the event log commits it, then published so the node knows its end.
    const { prisma } = server.app.infra.database;
    await prisma.$executeRawUnsafe(
      `WITH s AS (UPDATE "Project" SET "eventSeq" = "eventSeq" + $2::int WHERE id = $1 RETURNING "eventSeq" - $2::int AS before)
       INSERT INTO "DomainEvent" ("id", "id_project", "seq", "name", "subject", "payload", "createdAt")
       SELECT 'history-' || $1 || '-' || (s.before + g), $1, s.before + g, 'lead.update', 'lead', '{}'::jsonb, now()
       FROM s, generate_series(1, $2::int) g`,
      projectId,
      history,
    );
    const last = (await prisma.project.findUniqueOrThrow({ where: { id: projectId }, select: { eventSeq: true } })).eventSeq;
    const [event] = await server.app.infra.eventLog.readAfter(projectId, Number(last) - 1, 1);
    await server.app.infra.eventLog.publish(event);

    const received: number[] = [];
    let failures = 0;
    for (let s = 0; s < sockets; s++) {
      const socket = connect(server.url, token);
      clients.push(socket);
      await socket.ready;
      for (let i = 0; i < perSocket; i++) {
        const index = received.push(0) - 1;
        socket.client.subscribe(
          { query: 'subscription($p: String!) { projectEvents(project_id: $p, after: 0) { seq } }', variables: { p: projectId } },
          { next: (r) => (r.errors ? failures++ : received[index]++), error: () => failures++, complete: () => {} },
        );
      }
    }
    const started = performance.now();
    const waits: number[] = [];
    while (Math.min(...received) < Number(last) && !failures && performance.now() - started < 60_000) {
      const at = performance.now();
      const res = await fetch(`${server.url}/health`);
      await res.arrayBuffer();
      waits.push(performance.now() - at);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const replayMs = performance.now() - started;
    waits.sort((a, b) => a - b);
    const slowest = waits.at(-1) ?? 0;
    printTable('Forty replays of 3,000 events, /health every 20 ms', [
      {
        subscriptions: sockets * perSocket,
        events: history,
        'replay ms': Math.round(replayMs),
        'events/s': Math.round((sockets * perSocket * history) / (replayMs / 1000)),
        'health answers': waits.length,
        'health p50 ms': percentile(waits, 50).toFixed(1),
        'health max ms': slowest.toFixed(1),
        [`target < ${targetMs} ms`]: slowest < targetMs && !failures && Math.min(...received) >= Number(last) ? 'met' : 'MISSED',
      },
    ]);
  } finally {
    for (const socket of clients) await socket.client.dispose();
    await server.close();
    await env.drop();
  }
}
