import { spawnSync, type ChildProcess } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { Queue } from 'bullmq';
import { z } from 'zod';
import { RedisEventBus } from '../src/infra/event-bus.js';
import { BullJobQueue } from '../src/infra/job-queue-bullmq.js';
import { jobType } from '../src/infra/job-queue.js';
import { createLogger } from '../src/infra/logger.js';
import { Limiters } from '../src/infra/rate-limit.js';
import { running, startRedis } from './helpers/redis-server.js';

// A node (or worker process) started while Redis is down or frozen waits for it instead of failing
// to start: `npm run chaos` restarted a node during a Redis freeze, and the node exited with
// "Command timed out" (the event bus's ready check), so the deployment lost a node for good.
// Likewise a job queue whose first use meets a Redis blip is not wedged for the life of the process.

const logger = createLogger('silent');
const hasRedisServer = spawnSync('redis-server', ['--version']).status === 0;
const ports = [6392, 6393, 6394, 6395];
let child: ChildProcess | undefined;

/** A redis-server on a free port of `ports`, and that port. */
async function ownRedis(): Promise<{ redis: ChildProcess; port: number }> {
  for (const port of ports) {
    const redis = await startRedis(port).catch(() => undefined);
    if (redis) return { redis: (child = redis), port };
  }
  throw new Error(`no free port among ${ports.join(', ')}`);
}

afterEach(() => {
  if (child && running(child)) {
    child.kill('SIGCONT');
    child.kill('SIGKILL');
  }
  child = undefined;
});

/** Whether `promise` settled within `ms`, and how. */
async function outcome(promise: Promise<unknown>, ms: number): Promise<'resolved' | 'pending' | string> {
  return Promise.race([
    promise.then(
      () => 'resolved',
      (error: Error) => `rejected: ${error.message}`,
    ),
    new Promise<string>((resolve) => setTimeout(() => resolve('pending'), ms)),
  ]);
}

describe.skipIf(!hasRedisServer)('starting while Redis is away', () => {
  it('the event bus is ready once a frozen Redis answers again, instead of failing on the ready check timing out', async () => {
    const { redis, port } = await ownRedis();
    redis.kill('SIGSTOP');
    const bus = new RedisEventBus(`redis://127.0.0.1:${port}`, 'startup', logger, { commandTimeoutMs: 300 });
    const ready = bus.ready();
    // Well past the command timeout: the ready check has timed out at least once by now.
    expect(await outcome(ready, 1500)).toBe('pending');
    redis.kill('SIGCONT');
    expect(await outcome(ready, 10_000)).toBe('resolved');
    await bus.publish('x', { n: 1 });
    expect(bus.heldWrites().dropped).toBe(0);
    await bus.close();
  });

  it('the event bus and the rate-limit store wait for a Redis that is down at start', async () => {
    const { redis, port } = await ownRedis();
    const exited = new Promise((resolve) => redis.once('exit', resolve));
    redis.kill('SIGKILL');
    await exited;
    const url = `redis://127.0.0.1:${port}`;
    const bus = new RedisEventBus(url, 'startup', logger, { commandTimeoutMs: 300 });
    const ready = bus.ready();
    const limiters = Limiters.open({ redisUrl: url, redisPrefix: 'startup', redisCommandTimeoutMs: 300 }, logger);
    // The rate-limit store does not hold the start up: its counters count in memory meanwhile.
    expect(await outcome(limiters, 5000)).toBe('resolved');
    expect(await outcome(ready, 1000)).toBe('pending');
    child = await startRedis(port);
    expect(await outcome(ready, 15_000)).toBe('resolved');
    await bus.close();
    await (await limiters).close();
  });
});

describe.skipIf(!hasRedisServer)('a job type first used while Redis does not answer', () => {
  it('is queued once Redis answers again, and so are the jobs after it (BullMQ keeps a failed connection set-up for good)', async () => {
    const { redis, port } = await ownRedis();
    const prefix = `blip${Date.now()}`;
    const queue = new BullJobQueue({ host: '127.0.0.1', port, maxRetriesPerRequest: null }, prefix, logger, { commandTimeoutMs: 300 });
    const job = jobType('test.blip', z.object({ n: z.number() }));
    queue.define({ job, process: async () => {} });
    await new Promise((resolve) => setTimeout(resolve, 300)); // the producer connects
    // Frozen as the type's queue is first used: its set-up (Redis's version, asked with INFO) times out.
    redis.kill('SIGSTOP');
    await queue.enqueue(job, { n: 1 }, { jobId: 'first' });
    expect(queue.heldWrites().held).toBe(1);
    redis.kill('SIGCONT');
    await queue.enqueue(job, { n: 2 }, { jobId: 'second' });
    const reader = new Queue('test.blip', { connection: { host: '127.0.0.1', port }, prefix });
    const deadline = Date.now() + 10_000;
    let ids: string[] = [];
    while (Date.now() < deadline) {
      ids = (await reader.getJobs(['waiting'])).map((j) => String(j.id)).sort();
      // The queue counts a held job as made once Redis has answered its add, a moment after the add
      // is visible to another connection.
      if (ids.length === 2 && queue.heldWrites().waiting === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(ids).toEqual(['first', 'second']);
    expect(queue.heldWrites()).toMatchObject({ waiting: 0, dropped: 0 });
    await reader.close();
    await queue.close();
  });
});
