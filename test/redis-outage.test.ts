import type { ChildProcess } from 'node:child_process';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, type SeededProject, type TestApp } from './helpers/app.js';
import { eventually, onlyAvailable, openRequest, send } from './helpers/conversations.js';
import { productionMode } from './helpers/environment.js';
import { running, startRedis, startRedisOnFreePort } from './helpers/redis-server.js';
import { connect, subscribe, type Subscription } from './helpers/realtime.js';

// Redis failing under a production-mode node (PostgreSQL, and a redis-server of this file's own):
// a write that committed answers success at once and is stored once, and what Redis would have
// carried (events, jobs) arrives once it answers again.

const ports = [6385, 6386, 6387, 6388, 6389];



async function killRedis(child: ChildProcess) {
  if (!running(child)) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
}

/** Idle BullMQ workers each wait in BZPOPMIN: how many do on this server. */
async function waitingWorkers(port: number) {
  const admin = new Redis({ port, host: '127.0.0.1', lazyConnect: true, maxRetriesPerRequest: 0, enableOfflineQueue: false });
  admin.on('error', () => {});
  try {
    await admin.connect();
    const clients = (await admin.call('CLIENT', 'LIST')) as string;
    return clients.split('\n').filter((line) => line.includes('cmd=bzpopmin')).length;
  } catch {
    return 0;
  } finally {
    admin.disconnect();
  }
}

const eventsQuery = `subscription($p: String!, $after: Int) { projectEvents(project_id: $p, after: $after) { seq name subject } }`;

describe.skipIf(!productionMode)('a production node whose Redis fails', () => {
  let port: number;
  let redis: ChildProcess;
  let workers: number;
  let t: TestApp;
  let url: string;
  let p: SeededProject;
  const clients: Array<{ dispose(): void | Promise<void> }> = [];

  beforeAll(async () => {
    ({ redis, port } = await startRedisOnFreePort(ports));
    // A publish or enqueue waits at most this long for a Redis that does not answer (default 1 s).
    // (The rate limit is out of the way of the posters of the restart test.)
    const started = await createTestServer({ REDIS_URL: `redis://127.0.0.1:${port}`, REDIS_COMMAND_TIMEOUT_MS: '500', RATE_LIMIT_REQUESTS: '1000000' });
    t = started.client;
    url = started.server.url;
    p = await t.seedProject('Outage');
    workers = await eventually(() => waitingWorkers(port));
  });

  /** Brings Redis back and waits until every worker listens again (BullMQ cannot close a worker that is reconnecting). */
  async function restoreRedis() {
    if (!running(redis)) redis = await startRedis(port);
    else redis.kill('SIGCONT');
    await eventually(async () => (await waitingWorkers(port)) >= workers, 30_000);
  }

  afterAll(async () => {
    await Promise.all(clients.map((c) => c.dispose()));
    if (!redis) return;
    try {
      await restoreRedis();
      await t?.close();
    } finally {
      await killRedis(redis);
    }
  });

  const lastSeq = async () => Number((await t.infra.database.prisma.project.findUniqueOrThrow({ where: { id: p.projectId } })).eventSeq);

  /** An admin's subscription to every event of the project, live from the current sequence. */
  async function watchEvents(): Promise<Subscription> {
    const c = connect(url, p.admin.token);
    clients.push(c.client);
    await c.ready;
    return subscribe(c.client, eventsQuery, { p: p.projectId, after: await lastSeq() });
  }

  /** Runs `write` and answers its reply and how long it took. */
  async function timed<T>(write: () => Promise<T>) {
    const started = performance.now();
    const reply = await write();
    return { reply, ms: performance.now() - started };
  }

  it('answers a message and a tag written while Redis is down at once, stores each once, and delivers their events when it is back', async () => {
    const requestId = await openRequest(t, p);
    const live = await watchEvents();
    await send(t, p.projectId, p.admin.token, requestId, { text: 'before the outage' });
    const seen = await live.waitFor((e) => e.name === 'message.create');

    await killRedis(redis);
    const message = await timed(() => send(t, p.projectId, p.admin.token, requestId, { text: 'during the outage' }));
    const tag = await timed(() => t.post(`/v3/${p.projectId}/tags`, { token: p.admin.token, body: { tag: 'outage' } }));

    expect(message.reply.status).toBe(200);
    expect(message.ms).toBeLessThan(2000);
    expect(tag.reply.status).toBe(200);
    expect(tag.ms).toBeLessThan(2000);
    const db = t.infra.database.prisma;
    expect(await db.message.count({ where: { id_project: p.projectId, text: 'during the outage' } })).toBe(1);
    expect(await db.tag.count({ where: { id_project: p.projectId, tag: 'outage' } })).toBe(1);
    expect(t.infra.bus.heldWrites().held).toBeGreaterThan(0);

    await restoreRedis();
    const written = [message.reply.body._id, tag.reply.body._id];
    // The subscription that stayed open catches up, and so does one resuming from its last sequence.
    for (const id of written) await live.waitFor((e) => e.subject === id);
    const again = connect(url, p.admin.token);
    clients.push(again.client);
    const resumed = subscribe(again.client, eventsQuery, { p: p.projectId, after: seen.seq });
    for (const id of written) await resumed.waitFor((e) => e.subject === id);
  });

  it('answers every post of 40 clients posting through a Redis restart, none with a reset connection, each stored once', async () => {
    const requestId = await openRequest(t, p);
    let posting = true;
    let answered = 0;
    const statuses: number[] = [];
    const failures: string[] = [];
    const poster = async (k: number) => {
      for (let n = 0; posting; n++) {
        try {
          const reply = await send(t, p.projectId, p.admin.token, requestId, { text: `through the restart ${k}-${n}` });
          statuses.push(reply.status);
          if (reply.status === 200) answered++;
        } catch (error) {
          failures.push(String((error as { cause?: { code?: string } }).cause?.code ?? (error as Error).message));
        }
      }
    };
    const posters = Array.from({ length: 40 }, (_, k) => poster(k));
    try {
      await eventually(() => answered >= 100, 20_000);
      await killRedis(redis);
      const down = answered;
      await eventually(() => answered >= down + 100, 20_000);
      await restoreRedis();
      const back = answered;
      await eventually(() => answered >= back + 200, 20_000);
    } finally {
      posting = false;
      await Promise.all(posters);
    }
    expect(failures).toEqual([]);
    expect(statuses.filter((status) => status !== 200)).toEqual([]);
    const stored = await t.infra.database.prisma.message.count({ where: { id_project: p.projectId, text: { startsWith: 'through the restart ' } } });
    expect(stored).toBe(answered);
  });

  it('offers the waiting requests to an agent who became available while Redis was down', async () => {
    await onlyAvailable(t, p, []);
    const requestId = await openRequest(t, p);
    const request = () => t.get(`/v3/${p.projectId}/requests/${requestId}`, { token: p.owner.token }).then((r) => r.body);
    expect((await request()).status).toBe(100);

    await killRedis(redis);
    // Becoming available is logged with the change; the offer of the waiting requests is a
    // listener on the log (routing/waiting-offers.ts), not a job Redis must hold.
    const available = await timed(() =>
      t.put(`/v3/${p.projectId}/project_users/${p.agent.teammateId}`, { token: p.owner.token, body: { user_available: true } }),
    );
    expect(available.reply.status).toBe(200);
    expect(available.ms).toBeLessThan(2000);

    await restoreRedis();
    const served = await eventually(async () => {
      const current = await request();
      return current.status === 200 && current;
    });
    expect(served.participants).toEqual([p.agent.userId]);
  });

  it('opens a teammate\'s websocket at once while Redis is down, and shows them online once it is back', async () => {
    const presence = async () =>
      (await t.get(`/v3/${p.projectId}/project_users/${p.agent.teammateId}`, { token: p.owner.token })).body.presence?.status ?? 'offline';
    expect(await presence()).toBe('offline');

    await killRedis(redis);
    const started = performance.now();
    const socket = connect(url, p.agent.token);
    clients.push(socket.client);
    await socket.ready;
    expect(performance.now() - started).toBeLessThan(2000);
    const [me] = await subscribe(socket.client, '{ me { _id } }').take(1);
    expect(me._id).toBe(p.agent.userId);
    // Its presence could not be written (not merely queued until Redis returns).
    await eventually(() => t.services.presence.unwritten > 0, 10_000);

    await restoreRedis();
    // Retried every half second, not at the next heartbeat (a third of PRESENCE_TTL, 10 s, away).
    await eventually(async () => (await presence()) === 'online', 2_500);
  });

  it('answers /ready with 503 within its deadline while Redis is busy and does not answer', async () => {
    expect((await fetch(`${url}/ready`)).status).toBe(200);
    // Redis busy with one command for 4 s (as a slow script or a huge KEYS would keep it).
    const busy = new Redis({ port, host: '127.0.0.1' });
    await busy.ping();
    const sleeping = busy.call('DEBUG', 'SLEEP', '4').catch(() => null);
    try {
      for (let i = 0; i < 3; i++) {
        const ready = await timed(() => fetch(`${url}/ready`));
        expect(ready.reply.status).toBe(503);
        expect(ready.ms).toBeLessThan(1500);
      }
    } finally {
      await sleeping;
      busy.disconnect();
    }
    await eventually(async () => (await fetch(`${url}/ready`)).status === 200);
  });

  it('answers at once while Redis takes connections but does not answer', async () => {
    const requestId = await openRequest(t, p);
    const live = await watchEvents();

    redis.kill('SIGSTOP');
    const message = await timed(() => send(t, p.projectId, p.admin.token, requestId, { text: 'while Redis hangs' }));
    expect(message.reply.status).toBe(200);
    expect(message.ms).toBeLessThan(2000);

    redis.kill('SIGCONT');
    await live.waitFor((e) => e.subject === message.reply.body._id);
  });
});
