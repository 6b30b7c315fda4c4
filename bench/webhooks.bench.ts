// Webhook delivery in production mode (PostgreSQL + BullMQ), message.create events to 10
// subscriptions on a local receiver running in its own process.
// 1. Throughput: 10,000 events (100,000 deliveries) are logged while no worker runs, then the
//    workers start; sustained deliveries/s is the rate at which the receiver gets them (dispatch,
//    rendering and signing included). Target: at least 2,000 deliveries/s.
// 2. Latency: events logged at a steady rate while workers run; end-to-end latency is from the
//    event's commit (its `timestamp`) to its first arrival at the receiver.
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { startServer, type RunningServer } from '../src/server.js';
import { productionConfig } from './environment.js';
import { percentile, printTable } from './lib.js';

const events = Number(process.env.BENCH_WEBHOOK_EVENTS ?? 10_000);
const latencyEvents = Number(process.env.BENCH_WEBHOOK_LATENCY_EVENTS ?? 3_000);
const eventsPerSecond = Number(process.env.BENCH_WEBHOOK_RATE ?? 100);
const subscriptions = 10;

interface Report {
  count: number;
  unique: number;
  latencies: number[];
  first: number;
  last: number;
}

async function startReceiver() {
  const child = fork(fileURLToPath(new URL('./webhook-receiver.ts', import.meta.url)), [], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const [ready] = (await once(child, 'message')) as [{ port: number }];
  const ask = async (command: 'report' | 'progress' | 'reset') => {
    child.send(command);
    const [report] = await once(child, 'message');
    return report as Report;
  };
  return {
    url: `http://127.0.0.1:${ready.port}/hook`,
    ask,
    /** Polls the counts until `count` distinct deliveries arrived, then reads the whole report. */
    async waitFor(count: number): Promise<Report> {
      const deadline = Date.now() + 900_000;
      while ((await ask('progress')).unique < count && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
      return ask('report');
    },
    stop: () => child.kill(),
  };
}

async function projectWithSubscriptions(server: RunningServer, target: string, name: string) {
  const post = async (path: string, body: unknown, token?: string) => {
    const res = await fetch(`${server.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: token } : {}) },
      body: JSON.stringify(body),
    });
    return (await res.json()) as Record<string, any>;
  };
  const email = `${name}@example.test`;
  await post('/v3/auth/signup', { email, password: 'bench password' });
  const { token } = await post('/v3/auth/signin', { email, password: 'bench password' });
  const projectId = (await post('/v3/projects', { name }, token))._id as string;
  for (let i = 0; i < subscriptions; i++) await post(`/v3/${projectId}/subscriptions`, { event: 'message.create', target }, token);
  const request = await server.app.infra.database.prisma.request.create({
    data: { id_project: projectId, request_id: `support-group-${name}`, ticket_id: 1, first_text: 'bench', createdBy: 'bench' },
  });
  // The write a message module makes: messages and their events in one transaction.
  const logMessages = (count: number) =>
    server.app.infra.eventLog.transaction(async (tx, emit) => {
      for (let i = 0; i < count; i++) {
        const message = await tx.message.create({
          data: { id_project: projectId, request_id: request.request_id, sender: 'visitor', recipient: request.request_id, text: `message ${i}`, createdBy: 'visitor' },
        });
        await emit({ projectId, name: 'message.create', subject: message.id });
      }
    });
  return { logMessages };
}

const cpuMs = (usage: NodeJS.CpuUsage) => (usage.user + usage.system) / 1000;

export default async function webhooksBench() {
  const env = await productionConfig({
    OUTBOUND_ALLOW_PRIVATE: 'true',
    RUN_WORKERS: 'false',
    WEBHOOK_CONCURRENCY: process.env.BENCH_WEBHOOK_CONCURRENCY ?? '64',
  });
  const server = await startServer(env.config);
  const receiver = await startReceiver();
  try {
    // 1. Throughput: a backlog of events, then the workers.
    const backlog = await projectWithSubscriptions(server, receiver.url, 'throughput');
    for (let logged = 0; logged < events; logged += 100) await backlog.logMessages(Math.min(100, events - logged));
    await receiver.ask('reset');
    const cpuBefore = process.cpuUsage();
    const started = Date.now();
    await server.app.infra.queue.startWorkers();
    // When the last event has become deliveries: the dispatcher's share of the drain.
    const { prisma } = server.app.infra.database;
    const dispatched = (async () => {
      const behind = () => prisma.$queryRaw<Array<{ n: bigint }>>`
        SELECT count(*) AS n FROM "Project" p LEFT JOIN "EventCursor" c ON c."consumer" = 'webhooks' AND c."id_project" = p."id"
        WHERE p."eventSeq" > COALESCE(c."seq", 0)`;
      while ((await behind())[0].n > 0n) await new Promise((r) => setTimeout(r, 100));
      return (Date.now() - started) / 1000;
    })();
    const drained = await receiver.waitFor(events * subscriptions);
    const seconds = (drained.last - started) / 1000;
    const cpu = cpuMs(process.cpuUsage(cpuBefore));

    // 2. Latency at a steady offered rate, workers running.
    const steady = await projectWithSubscriptions(server, receiver.url, 'latency');
    await receiver.ask('reset');
    const tickMs = 50;
    const perTick = Math.max(1, Math.round((eventsPerSecond * tickMs) / 1000));
    const offeredFrom = Date.now();
    const writes: Promise<void>[] = [];
    for (let logged = 0, tick = 0; logged < latencyEvents; logged += perTick, tick++) {
      const wait = offeredFrom + tick * tickMs - Date.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      writes.push(steady.logMessages(Math.min(perTick, latencyEvents - logged)));
      // Writers of one project serialise on its event sequence: keep at most two in flight.
      if (writes.length >= 2) await writes.shift();
    }
    await Promise.all(writes);
    const offeredSeconds = (Date.now() - offeredFrom) / 1000;
    const timed = await receiver.waitFor(latencyEvents * subscriptions);
    const sorted = timed.latencies.sort((a, b) => a - b);

    printTable('webhooks: message.create to 10 subscriptions (production mode)', [
      {
        phase: 'throughput (backlog)',
        events,
        deliveries: drained.unique,
        duplicates: drained.count - drained.unique,
        'deliveries/s': Math.round(drained.unique / seconds),
        'all dispatched after s': Math.round((await dispatched) * 10) / 10,
        'drained after s': Math.round(seconds * 10) / 10,
        'server CPU ms/delivery': Math.round((cpu / Math.max(1, drained.unique)) * 100) / 100,
      },
      {
        phase: `latency (${Math.round(latencyEvents / offeredSeconds)} events/s offered)`,
        events: latencyEvents,
        deliveries: timed.unique,
        duplicates: timed.count - timed.unique,
        'deliveries/s': Math.round(timed.unique / ((timed.last - offeredFrom) / 1000)),
        'p50 ms': Math.round(percentile(sorted, 50)),
        'p99 ms': Math.round(percentile(sorted, 99)),
        'max ms': Math.round(sorted[sorted.length - 1] ?? 0),
      },
    ]);
  } finally {
    receiver.stop();
    await server.close();
    await env.drop();
  }
}
