import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { jobType, PermanentJobError, type JobQueue } from '../src/infra/job-queue.js';
import { BullJobQueue } from '../src/infra/job-queue-bullmq.js';
import { InProcessJobQueue } from '../src/infra/job-queue-in-process.js';
import { createLogger } from '../src/infra/logger.js';
import { uniqueName } from './helpers/environment.js';
import { eventually } from './helpers/conversations.js';

// Both drivers answer to the same specification: the JobQueue interface.

const logger = createLogger('silent');

const anything = z.looseObject({});
const echo = jobType('echo', z.object({ hello: z.string() }));
const flaky = jobType('flaky', anything);
const permanent = jobType('permanent', anything);
const marker = jobType('marker', anything);
const once = jobType('once', anything);
const slow = jobType('slow', anything);
const counted = jobType('counted', z.object({ projectId: z.string().min(1), count: z.number().int() }));

describe.each([
  ['in-process', () => new InProcessJobQueue(logger) as JobQueue],
  ['BullMQ', () => new BullJobQueue({ host: '127.0.0.1', port: 6379, maxRetriesPerRequest: null }, uniqueName('jobs'), logger) as JobQueue],
])('%s job queue', (_name, make) => {
  it('runs an enqueued job with its data', async () => {
    const queue = make();
    const seen: unknown[] = [];
    queue.define({ job: echo, process: async (data) => void seen.push(data) });
    await queue.startWorkers();
    await queue.enqueue(echo, { hello: 'world' });
    await eventually(() => seen.length === 1);
    expect(seen[0]).toEqual({ hello: 'world' });
    await queue.close();
  });

  it("refuses to enqueue data its job type's schema refuses, naming the field", async () => {
    const queue = make();
    const seen: unknown[] = [];
    queue.define({ job: counted, process: async (data) => void seen.push(data) });
    await queue.startWorkers();
    const bad = { projectId: 'p1', count: 'three' } as unknown as { projectId: string; count: number };
    await expect(queue.enqueue(counted, bad)).rejects.toThrow(/invalid counted job data: count/);
    await expect(queue.enqueueMany(counted, [{ data: { projectId: '', count: 1 } }])).rejects.toThrow(/projectId/);
    await queue.enqueue(counted, { projectId: 'p1', count: 3 });
    await eventually(() => seen.length === 1);
    expect(seen).toEqual([{ projectId: 'p1', count: 3 }]);
    await queue.close();
  });

  it('retries a failing job until it succeeds', async () => {
    const queue = make();
    const attempts: number[] = [];
    queue.define({
      job: flaky,
      attempts: 3,
      backoffMs: () => 20,
      process: async (_data, job) => {
        attempts.push(job.attempt);
        if (job.attempt < 3) throw new Error('not yet');
      },
    });
    await queue.startWorkers();
    await queue.enqueue(flaky, {});
    await eventually(() => attempts.length === 3);
    expect(attempts).toEqual([1, 2, 3]);
    await queue.close();
  });

  it('does not retry a permanent failure', async () => {
    const queue = make();
    let runs = 0;
    queue.define({
      job: permanent,
      attempts: 5,
      backoffMs: () => 10,
      process: async () => {
        runs++;
        throw new PermanentJobError('never');
      },
    });
    queue.define({ job: marker, process: async () => void (runs += 100) });
    await queue.startWorkers();
    await queue.enqueue(permanent, {});
    await eventually(() => runs >= 1);
    await queue.enqueue(marker, {});
    await eventually(() => runs >= 101);
    expect(runs).toBe(101);
    await queue.close();
  });

  it('ignores a second enqueue with the same job id', async () => {
    const queue = make();
    let runs = 0;
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    queue.define({ job: once, process: async () => { runs++; await gate; } });
    await queue.startWorkers();
    await queue.enqueue(once, {}, { jobId: 'same' });
    await queue.enqueue(once, {}, { jobId: 'same' });
    await eventually(() => runs === 1);
    release();
    await queue.close();
    expect(runs).toBe(1);
  });

  it('waits for in-flight jobs on close', async () => {
    const queue = make();
    let finished = false;
    let started = false;
    queue.define({
      job: slow,
      process: async () => {
        started = true;
        await new Promise((r) => setTimeout(r, 200));
        finished = true;
      },
    });
    await queue.startWorkers();
    await queue.enqueue(slow, {});
    await eventually(() => started);
    await queue.close();
    expect(finished).toBe(true);
  });
});
