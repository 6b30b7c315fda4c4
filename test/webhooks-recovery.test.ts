import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import type { Config } from '../src/config.js';
import { createInfrastructure } from '../src/infra/index.js';
import { registerJobs } from '../workers/jobs.js';
import { serveTestApp, testEnvironment, type TestApp, type TestEnvironment } from './helpers/app.js';
import { productionMode } from './helpers/environment.js';
import { runScript } from './helpers/script-process.js';
import { eventually, startReceiver } from './helpers/webhook-receiver.js';

// Nothing committed is lost: events logged while no dispatcher ran, deliveries waiting for a retry
// when the process stopped, and deliveries in flight in a worker killed with SIGKILL all arrive.

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** An app on a persistent database (PGlite under DATA_DIR, or the environment's PostgreSQL). */
async function node(config: Config, { workers }: { workers: boolean }) {
  const infra = await createInfrastructure(config);
  const app = buildApp(infra);
  registerJobs(infra.queue, app.services);
  if (workers) await infra.queue.startWorkers();
  let closed = false;
  const client = await serveTestApp(app, () => infra.close());
  const close = async () => {
    if (!closed) await client.close();
    closed = true;
  };
  cleanups.push(close);
  return { client, close };
}

async function environment(overrides: Record<string, string> = {}) {
  const env: TestEnvironment = await testEnvironment({ OUTBOUND_ALLOW_PRIVATE: 'true', WEBHOOK_SWEEP_INTERVAL: '200ms', EVENT_SWEEP_INTERVAL: '200ms', ...overrides });
  cleanups.push(() => env.dispose());
  return env.config;
}

async function receiver() {
  const r = await startReceiver();
  cleanups.push(() => r.close());
  return r;
}

async function projectWithSubscription(client: TestApp, target: string, event = 'lead.create') {
  const owner = await client.newUser('owner');
  const project = await client.post('/v3/projects', { token: owner.token, body: { name: 'Recovery' } });
  const projectId = project.body._id as string;
  const subscription = await client.post(`/v3/${projectId}/subscriptions`, { token: owner.token, body: { event, target } });
  expect(subscription.status).toBe(200);
  return { projectId, token: owner.token, subscriptionId: subscription.body._id as string };
}

function logLead(client: TestApp, projectId: string, fullname: string) {
  return client.services.infra.eventLog.transaction(async (tx, emit) => {
    const lead = await tx.lead.create({ data: { id_project: projectId, fullname, createdBy: 'test' } });
    await emit({ projectId, name: 'lead.create', subject: lead.id });
    return lead;
  });
}

describe('webhook recovery', () => {
  it('delivers events committed while no worker ran, once one starts', async () => {
    const config = await environment();
    const r = await receiver();
    const api = await node(config, { workers: false });
    const { projectId } = await projectWithSubscription(api.client, r.url);
    const lead = await logLead(api.client, projectId, 'while down');
    await api.close();

    await node(config, { workers: true });
    const [got] = await r.waitFor(1);
    expect(got.json.payload).toMatchObject({ _id: lead.id, fullname: 'while down' });
  }, 90_000);

  it('a delivery waiting for its retry when the process stops is retried after the restart', async () => {
    const config = await environment({ WEBHOOK_RETRY_SCHEDULE: '1s,1s' });
    const r = await receiver();
    r.respond((_req, i) => (i === 0 ? { status: 503 } : { status: 200 }));
    const first = await node(config, { workers: true });
    const { projectId, token, subscriptionId } = await projectWithSubscription(first.client, r.url);
    await logLead(first.client, projectId, 'retry me');
    await r.waitFor(1);
    await eventually(async () => {
      const res = await first.client.get(`/v3/${projectId}/subscriptions/${subscriptionId}/deliveries`, { token });
      return res.body.deliveries[0]?.attempts.length === 1;
    });
    await first.close();

    const second = await node(config, { workers: true });
    await r.waitFor(2);
    expect(r.received[1].headers['webhook-id']).toBe(r.received[0].headers['webhook-id']);
    const log = await eventually(async () => {
      const res = await second.client.get(`/v3/${projectId}/subscriptions/${subscriptionId}/deliveries`, { token });
      return res.body.deliveries[0]?.status === 'succeeded' && res.body.deliveries[0];
    });
    expect(log.attempts.map((a: { statusCode: number }) => a.statusCode)).toEqual([503, 200]);
  }, 90_000);

  it.skipIf(!productionMode)(
    'a worker killed mid-delivery loses nothing; the receiver dedupes by webhook-id',
    async () => {
      const config = await environment({ RUN_WORKERS: 'false', WEBHOOK_WORKER_LOCK_MS: '1000', WEBHOOK_TIMEOUT_MS: '20000' });
      const r = await receiver();
      const api = await node(config, { workers: false });
      const { projectId, token, subscriptionId } = await projectWithSubscription(api.client, r.url);

      const workerEnv = {
        ...process.env,
        NODE_ENV: 'test',
        LOG_LEVEL: 'info',
        DATA_DIR: config.dataDir,
        JWT_SECRET: config.jwtSecret,
        DATABASE_URL: config.databaseUrl,
        REDIS_URL: config.redisUrl,
        REDIS_PREFIX: config.redisPrefix,
        OUTBOUND_ALLOW_PRIVATE: 'true',
        WEBHOOK_WORKER_LOCK_MS: '1000',
        WEBHOOK_TIMEOUT_MS: '20000',
        WEBHOOK_SWEEP_INTERVAL: '200ms', EVENT_SWEEP_INTERVAL: '200ms',
      };
      const startWorker = async () => {
        const worker = runScript('workers/index.ts', workerEnv);
        cleanups.push(() => worker.kill());
        await worker.until(() => worker.output().includes('workers started'));
        return worker.child;
      };

      const first: ChildProcess = await startWorker();
      // The first request hangs; when it arrives the worker sending it is killed.
      r.respond((_req, i) => {
        if (i === 0) {
          first.kill('SIGKILL');
          return 'hang';
        }
        return { status: 200 };
      });
      const leads = [];
      for (let i = 0; i < 5; i++) leads.push(await logLead(api.client, projectId, `lead ${i}`));
      await r.waitFor(1);
      await once(first, 'exit');

      await startWorker();
      const killed = String(r.received[0].headers['webhook-id']);
      // The request cut by the kill comes again, with the same webhook-id.
      await eventually(() => r.received.filter((x) => x.headers['webhook-id'] === killed).length >= 2, 30_000);
      const unique = await eventually(() => r.unique().length === 5 && r.unique(), 30_000);
      expect(unique.map((x) => x.json.payload._id).sort()).toEqual(leads.map((l) => l.id).sort());
      const log = await eventually(async () => {
        const res = await api.client.get(`/v3/${projectId}/subscriptions/${subscriptionId}/deliveries`, { token });
        return res.body.deliveries.every((d: { status: string }) => d.status === 'succeeded') && res.body;
      });
      expect(log.count).toBe(5);
    },
    120_000,
  );
});
