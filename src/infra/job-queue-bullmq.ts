import { Queue, Worker, type ConnectionOptions } from 'bullmq';
import { Redis, type RedisOptions } from 'ioredis';
import { HeldWrites, type HeldWriteStats } from './held-writes.js';
import {
  BackgroundTasks,
  checkedData,
  defaultBackoff,
  RetryJobError,
  runProcessor,
  type BackgroundTask,
  type EnqueueOptions,
  type JobData,
  type JobDefinition,
  type JobInput,
  type JobQueue,
  type JobType,
} from './job-queue.js';
import type { Logger } from './logger.js';
import { afterRequestCommit } from './request-transaction.js';

// The Redis driver (REDIS_URL): jobs go through BullMQ queues, one per job type, and run in the
// workers of any process that started them (the server, or `npm run workers`).

export interface BullJobQueueOptions {
  /** Longest an enqueue waits for Redis before the job is held (default 1000 ms). */
  commandTimeoutMs?: number;
  /** Most jobs held while Redis is away (default 50,000); past it the oldest are dropped. */
  holdCapacity?: number;
}

/** Jobs to add to one queue, as the producer was asked to, and when. */
interface JobsToAdd {
  name: string;
  jobs: Array<{ data: JobData; options: EnqueueOptions }>;
  askedAt: number;
}

export class BullJobQueue implements JobQueue {
  private definitions = new Map<string, JobDefinition>();
  private queues = new Map<string, Queue>();
  private workers: Worker[] = [];
  private background: BackgroundTasks;
  /**
   * The producers' connection, apart from the workers' (which wait out any outage): it fails at
   * once while Redis is away (no offline queue) and waits at most `commandTimeoutMs` for an answer.
   */
  private producer: Redis;
  /**
   * Jobs asked for while Redis was away, queued once it answers. Should this process stop first,
   * the work is found again by its own sweep: webhook deliveries by the dispatcher's, knowledge-base
   * contents at start; a waiting request is offered again on the next capacity change.
   */
  private held: HeldWrites<JobsToAdd>;

  constructor(
    private connection: RedisOptions,
    private prefix: string,
    private logger: Logger,
    options: BullJobQueueOptions = {},
  ) {
    this.background = new BackgroundTasks(logger);
    this.producer = new Redis({
      ...connection,
      maxRetriesPerRequest: 1,
      enableOfflineQueue: false,
      commandTimeout: options.commandTimeoutMs ?? 1000,
    });
    // Failures show on the enqueues (held and logged there); ioredis would report each reconnect.
    this.producer.on('error', () => {});
    this.held = new HeldWrites({
      what: 'job queue',
      send: (jobs) => this.add(jobs),
      connected: () => this.producer.status === 'ready',
      logger,
      capacity: options.holdCapacity ?? 50_000,
    });
    this.producer.on('ready', () => void this.held.flush());
  }

  heldWrites(): HeldWriteStats {
    return this.held.stats();
  }

  runBeside(task: BackgroundTask) {
    this.background.add(task);
  }

  define<T extends JobType>(definition: JobDefinition<T>) {
    this.definitions.set(definition.job.name, definition as unknown as JobDefinition);
  }

  private queue(name: string) {
    let queue = this.queues.get(name);
    if (!queue) {
      queue = new Queue(name, { connection: this.producer, prefix: this.prefix });
      queue.on('error', () => {});
      this.queues.set(name, queue);
    }
    return queue;
  }

  /** `askedAt`: a job held a while keeps its due time, not its delay from now. */
  private jobOptions(definition: JobDefinition, options: EnqueueOptions, askedAt = Date.now()) {
    return {
      jobId: options.jobId,
      delay: options.delayMs === undefined ? undefined : Math.max(0, options.delayMs - (Date.now() - askedAt)),
      attempts: definition.attempts ?? 3,
      backoff: { type: 'custom' },
      removeOnComplete: { count: 1000 },
      removeOnFail: { count: 5000 },
    };
  }

  private definition(name: string) {
    const definition = this.definitions.get(name);
    if (!definition) throw new Error(`unknown job ${name}`);
    return definition;
  }

  async enqueue<T extends JobType>(job: T, data: JobInput<T>, options: EnqueueOptions = {}) {
    const checked = checkedData(job, data);
    this.definition(job.name);
    // Inside a request that runs in one transaction, its job waits for the commit (its rows are not there before).
    if (afterRequestCommit(() => this.enqueue(job, data, options))) return;
    await this.held.write({ name: job.name, jobs: [{ data: checked, options }], askedAt: Date.now() });
  }

  async enqueueMany<T extends JobType>(job: T, jobs: Array<{ data: JobInput<T>; options?: EnqueueOptions }>) {
    const checked = jobs.map((each) => ({ data: checkedData(job, each.data), options: each.options ?? {} }));
    this.definition(job.name);
    if (!checked.length) return;
    if (afterRequestCommit(() => this.enqueueMany(job, jobs))) return;
    await this.held.write({ name: job.name, jobs: checked, askedAt: Date.now() });
  }

  private async add(write: JobsToAdd) {
    const queue = this.queue(write.name);
    try {
      await this.addTo(queue, write);
    } catch (error) {
      // BullMQ sets a queue's connection up once (it asks Redis its version) and keeps a failed
      // set-up for good: every later add on that queue would fail with the same error, and, held
      // writes being made in order, this process would enqueue nothing again. A queue whose set-up
      // failed (Redis frozen or restarting at its first use) is dropped; the retry makes a new one.
      if (await queue.waitUntilReady().then(() => false, () => true)) {
        if (this.queues.get(write.name) === queue) this.queues.delete(write.name);
        void queue.close().catch(() => {});
      }
      throw error;
    }
  }

  private async addTo(queue: Queue, { name, jobs, askedAt }: JobsToAdd) {
    const definition = this.definition(name);
    if (jobs.length === 1 || jobs.some((job) => job.options.replaceFinished)) {
      for (const { data, options } of jobs) {
        if (options.jobId && options.replaceFinished) {
          const existing = await queue.getJob(options.jobId);
          if (existing && ((await existing.isCompleted()) || (await existing.isFailed()))) await existing.remove();
        }
        await queue.add(name, data, this.jobOptions(definition, options, askedAt));
      }
      return;
    }
    await queue.addBulk(jobs.map((job) => ({ name, data: job.data, opts: this.jobOptions(definition, job.options, askedAt) })));
  }

  async startWorkers() {
    for (const definition of this.definitions.values()) {
      const backoff = definition.backoffMs ?? defaultBackoff;
      const worker = new Worker(
        definition.job.name,
        async (job) => runProcessor(definition, job.data, { id: String(job.id), attempt: job.attemptsMade + 1 }),
        {
          connection: this.connection as ConnectionOptions,
          prefix: this.prefix,
          concurrency: definition.concurrency ?? 8,
          ...(definition.lockMs ? { lockDuration: definition.lockMs, stalledInterval: definition.lockMs } : {}),
          settings: {
            backoffStrategy: (attemptsMade: number, _type?: string, error?: Error) =>
              error instanceof RetryJobError ? Math.max(0, error.delayMs) : backoff(attemptsMade),
          },
        },
      );
      worker.on('failed', (job, error) =>
        this.logger.warn({ job: definition.job.name, id: job?.id, err: error.message }, 'job attempt failed'),
      );
      worker.on('error', (error) => this.logger.warn({ err: error.message }, 'job worker error'));
      this.workers.push(worker);
    }
    await Promise.all(this.workers.map((w) => w.waitUntilReady()));
    await this.background.start();
  }

  async close() {
    await this.background.stop();
    // Worker.close() waits for the jobs in flight to finish.
    await Promise.allSettled(this.workers.map((w) => w.close()));
    await this.held.close();
    await Promise.allSettled([...this.queues.values()].map((q) => q.close()));
    await this.producer.quit().catch(() => {});
  }
}
