import { Queue, Worker, UnrecoverableError, type ConnectionOptions } from 'bullmq';
import { Redis, type RedisOptions } from 'ioredis';
import { HeldWrites, type HeldWriteStats } from './held-writes.js';
import type { Logger } from './logger.js';

// Background jobs. The same processor functions run in the in-process runner (embedded)
// and in BullMQ workers (REDIS_URL), in the server or in `workers/` processes.

export type JobData = Record<string, unknown>;
export interface JobContext {
  id: string;
  attempt: number;
}
export type Processor = (data: JobData, job: JobContext) => Promise<unknown>;

export interface JobDefinition {
  name: string;
  process: Processor;
  attempts?: number;
  /** Delay before retry n (1-based), in milliseconds; a `RetryJobError` carries its own delay instead. */
  backoffMs?: (attempt: number) => number;
  /** Jobs of this name running at once in one process (default 8). */
  concurrency?: number;
  /**
   * How long a job stays claimed by a worker that stopped renewing its claim (a crashed process)
   * before another worker takes it over (BullMQ lock and stall check; default 30 s).
   */
  lockMs?: number;
}

/** Work that runs beside the workers of a process (a listener, a periodic sweep). */
export interface BackgroundTask {
  name: string;
  /** Starts the task; the function it returns stops it. */
  start(): Promise<() => Promise<void>>;
}

export interface EnqueueOptions {
  /** Idempotency key: a second enqueue with the same id is ignored while the first exists. */
  jobId?: string;
  delayMs?: number;
  /**
   * With `jobId`: a finished (completed or failed) job kept under that id is replaced instead of
   * swallowing the enqueue. For recovery, when the caller knows the work is still to do.
   */
  replaceFinished?: boolean;
}

export interface JobQueue {
  define(definition: JobDefinition): void;
  /**
   * Queues a job. Producers call it after a commit, so it does not fail for want of Redis, nor wait
   * for it longer than a short bound: while Redis does not answer, jobs are held in this process and
   * queued once it does (a job name nobody defined still throws).
   */
  enqueue(name: string, data: JobData, options?: EnqueueOptions): Promise<void>;
  /** Many jobs of one name in one round trip. */
  enqueueMany(name: string, jobs: Array<{ data: JobData; options?: EnqueueOptions }>): Promise<void>;
  /** Jobs that could not be queued at once (Redis away), and what became of them. */
  heldWrites(): HeldWriteStats;
  /** Registers a task that runs while this process's workers do: started by startWorkers, stopped by close. */
  runBeside(task: BackgroundTask): void;
  /** Starts consuming jobs in this process. */
  startWorkers(): Promise<void>;
  /** Stops taking jobs and waits for the ones in flight. */
  close(): Promise<void>;
}

/** Permanent failure: the job is not retried. */
export class PermanentJobError extends UnrecoverableError {}

/** Temporary failure with the delay before the next attempt chosen by the processor. */
export class RetryJobError extends Error {
  constructor(
    message: string,
    readonly delayMs: number,
  ) {
    super(message);
  }
}

function retryDelay(definition: JobDefinition, attempt: number, error: unknown) {
  if (error instanceof RetryJobError) return Math.max(0, error.delayMs);
  return (definition.backoffMs ?? defaultBackoff)(attempt);
}

/** Starts background tasks and stops them in reverse order. */
class BackgroundTasks {
  private tasks: BackgroundTask[] = [];
  private stops: Array<() => Promise<void>> = [];

  constructor(private logger: Logger) {}

  add(task: BackgroundTask) {
    this.tasks.push(task);
  }

  async start() {
    for (const task of this.tasks) this.stops.push(await task.start());
  }

  async stop() {
    for (const stop of this.stops.splice(0).reverse()) {
      await stop().catch((error) => this.logger.warn({ err: (error as Error).message }, 'background task stop failed'));
    }
  }
}

const defaultBackoff = (attempt: number) => Math.min(2 ** attempt * 500, 60_000);

export class InProcessJobQueue implements JobQueue {
  private definitions = new Map<string, JobDefinition>();
  private inFlight = new Set<Promise<void>>();
  private timers = new Set<NodeJS.Timeout>();
  private pendingIds = new Set<string>();
  private running = false;
  private closed = false;
  private backlog: Array<() => void> = [];
  private sequence = 0;
  private busy = new Map<string, number>();
  private waiting = new Map<string, Array<() => void>>();
  private background: BackgroundTasks;

  constructor(private logger: Logger) {
    this.background = new BackgroundTasks(logger);
  }

  runBeside(task: BackgroundTask) {
    this.background.add(task);
  }

  heldWrites(): HeldWriteStats {
    return { held: 0, sent: 0, dropped: 0, waiting: 0 };
  }

  async enqueueMany(name: string, jobs: Array<{ data: JobData; options?: EnqueueOptions }>) {
    for (const job of jobs) await this.enqueue(name, job.data, job.options);
  }

  define(definition: JobDefinition) {
    this.definitions.set(definition.name, definition);
  }

  async enqueue(name: string, data: JobData, options: EnqueueOptions = {}) {
    if (this.closed) throw new Error('job queue is closed');
    const definition = this.definitions.get(name);
    if (!definition) throw new Error(`unknown job ${name}`);
    const id = options.jobId ?? `${name}:${++this.sequence}`;
    if (options.jobId) {
      if (this.pendingIds.has(id)) return;
      this.pendingIds.add(id);
    }
    const start = () => this.schedule(definition, id, data, 1, options.delayMs ?? 0);
    if (this.running) start();
    else this.backlog.push(start);
  }

  private schedule(definition: JobDefinition, id: string, data: JobData, attempt: number, delayMs: number) {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      this.whenSlotFree(definition, () => {
        const run = this.run(definition, id, data, attempt).finally(() => {
          this.inFlight.delete(run);
          this.releaseSlot(definition);
        });
        this.inFlight.add(run);
      });
    }, delayMs);
    this.timers.add(timer);
  }

  // Same limit as a BullMQ worker's concurrency, so both modes behave alike under load.
  private whenSlotFree(definition: JobDefinition, start: () => void) {
    const busy = this.busy.get(definition.name) ?? 0;
    if (busy < (definition.concurrency ?? 8)) {
      this.busy.set(definition.name, busy + 1);
      start();
      return;
    }
    let queue = this.waiting.get(definition.name);
    if (!queue) this.waiting.set(definition.name, (queue = []));
    queue.push(start);
  }

  private releaseSlot(definition: JobDefinition) {
    const next = this.waiting.get(definition.name)?.shift();
    if (next && !this.closed) next();
    else this.busy.set(definition.name, (this.busy.get(definition.name) ?? 1) - 1);
  }

  private async run(definition: JobDefinition, id: string, data: JobData, attempt: number) {
    try {
      await definition.process(data, { id, attempt });
      this.pendingIds.delete(id);
    } catch (error) {
      const attempts = definition.attempts ?? 3;
      if (error instanceof UnrecoverableError || attempt >= attempts || this.closed) {
        this.pendingIds.delete(id);
        this.logger.warn({ job: definition.name, id, attempt, err: (error as Error).message }, 'job failed');
        return;
      }
      this.schedule(definition, id, data, attempt + 1, retryDelay(definition, attempt, error));
    }
  }

  async startWorkers() {
    this.running = true;
    for (const start of this.backlog.splice(0)) start();
    await this.background.start();
  }

  async close() {
    await this.background.stop();
    this.closed = true;
    this.waiting.clear();
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    await Promise.allSettled([...this.inFlight]);
  }
}

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

  define(definition: JobDefinition) {
    this.definitions.set(definition.name, definition);
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

  async enqueue(name: string, data: JobData, options: EnqueueOptions = {}) {
    this.definition(name);
    await this.held.write({ name, jobs: [{ data, options }], askedAt: Date.now() });
  }

  async enqueueMany(name: string, jobs: Array<{ data: JobData; options?: EnqueueOptions }>) {
    this.definition(name);
    if (!jobs.length) return;
    await this.held.write({ name, jobs: jobs.map((job) => ({ data: job.data, options: job.options ?? {} })), askedAt: Date.now() });
  }

  private async add({ name, jobs, askedAt }: JobsToAdd) {
    const definition = this.definition(name);
    const queue = this.queue(name);
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
        definition.name,
        async (job) => definition.process(job.data as JobData, { id: String(job.id), attempt: job.attemptsMade + 1 }),
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
        this.logger.warn({ job: definition.name, id: job?.id, err: error.message }, 'job attempt failed'),
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
