// Webhook delivery in production mode (PostgreSQL + BullMQ): 10,000 message.create events to 10
// subscriptions on a local receiver, i.e. 100,000 deliveries. Events are logged at a steady rate
// (open loop); we report sustained deliveries per second and the end-to-end latency from the
// event's commit to its arrival at the receiver. Target: at least 2,000 deliveries/s.
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { startServer } from '../src/server.js';
import { productionConfig } from './environment.js';
import { percentile, printTable } from './lib.js';

const events = Number(process.env.BENCH_WEBHOOK_EVENTS ?? 10_000);
const subscriptions = 10;
const eventsPerSecond = Number(process.env.BENCH_WEBHOOK_RATE ?? 400);

/** The receiver runs in its own process, as a customer's would, and reports arrivals. */
async function startReceiver() {
  const child = fork(fileURLToPath(new URL('./webhook-receiver.ts', import.meta.url)), [], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const [ready] = (await once(child, 'message')) as [{ port: number }];
  return {
    url: `http://127.0.0.1:${ready.port}/hook`,
    async report(): Promise<{ count: number; unique: number; latencies: number[]; first: number; last: number }> {
      child.send('report');
      const [report] = await once(child, 'message');
      return report as never;
    },
    stop() {
      child.kill();
    },
  };
}

export default async function webhooksBench() {
  const env = await productionConfig({ OUTBOUND_ALLOW_PRIVATE: 'true', WEBHOOK_CONCURRENCY: process.env.BENCH_WEBHOOK_CONCURRENCY ?? '128' });
  const server = await startServer(env.config);
  const receiver = await startReceiver();
  try {
    const post = async (path: string, body: unknown, token?: string) => {
      const res = await fetch(`${server.url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(token ? { authorization: token } : {}) },
        body: JSON.stringify(body),
      });
      return (await res.json()) as Record<string, any>;
    };
    await post('/v3/auth/signup', { email: 'bench@example.test', password: 'bench password' });
    const { token } = await post('/v3/auth/signin', { email: 'bench@example.test', password: 'bench password' });
    const project = await post('/v3/projects', { name: 'Webhook bench' }, token);
    const projectId = project._id as string;
    for (let i = 0; i < subscriptions; i++) await post(`/v3/${projectId}/subscriptions`, { event: 'message.create', target: receiver.url }, token);

    const { eventLog, database } = server.app.infra;
    const request = await database.prisma.request.create({
      data: { id_project: projectId, request_id: 'support-group-bench', ticket_id: 1, first_text: 'bench', createdBy: 'bench' },
    });
    // The write a message module makes, the messages and their events in one transaction; a tick's
    // worth per transaction, so that logging events (not measured here) keeps up with the offered rate.
    const logMessages = (from: number, count: number) =>
      eventLog.transaction(async (tx, emit) => {
        for (let i = from; i < from + count; i++) {
          const message = await tx.message.create({
            data: { id_project: projectId, request_id: request.request_id, sender: 'visitor', recipient: request.request_id, text: `message ${i}`, createdBy: 'visitor' },
          });
          await emit({ projectId, name: 'message.create', subject: message.id });
        }
      });

    const cpuBefore = process.cpuUsage();
    const tickMs = 50;
    const perTick = Math.max(1, Math.round((eventsPerSecond * tickMs) / 1000));
    const started = Date.now();
    const inFlight = new Set<Promise<void>>();
    for (let i = 0, tick = 0; i < events; i += perTick, tick++) {
      const wait = started + tick * tickMs - Date.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      // Writers of one project serialise on its event sequence: more in flight only queue.
      while (inFlight.size >= 2) await Promise.race(inFlight);
      const write = logMessages(i, Math.min(perTick, events - i)).finally(() => inFlight.delete(write));
      inFlight.add(write);
    }
    await Promise.all(inFlight);
    const produced = Date.now();

    const expected = events * subscriptions;
    const deadline = Date.now() + 600_000;
    let report = await receiver.report();
    while (report.unique < expected && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 500));
      report = await receiver.report();
    }
    const cpu = process.cpuUsage(cpuBefore);
    const sorted = report.latencies.sort((a, b) => a - b);
    const seconds = (report.last - report.first) / 1000;
    printTable('webhooks: message.create to 10 subscriptions (production mode)', [
      {
        events,
        subscriptions,
        'offered events/s': eventsPerSecond,
        'events logged in s': Math.round((produced - started) / 100) / 10,
        deliveries: report.unique,
        duplicates: report.count - report.unique,
        'deliveries/s': Math.round(report.unique / seconds),
        'p50 ms': Math.round(percentile(sorted, 50)),
        'p99 ms': Math.round(percentile(sorted, 99)),
        'max ms': Math.round(sorted[sorted.length - 1] ?? 0),
        // CPU of the server process (API, dispatcher, workers) per delivery: the cost behind the rate.
        'server CPU ms/delivery': Math.round(((cpu.user + cpu.system) / 1000 / Math.max(1, report.unique)) * 100) / 100,
      },
    ]);
  } finally {
    receiver.stop();
    await server.close();
    await env.drop();
  }
}
