import { Queue, Worker, UnrecoverableError, type ConnectionOptions } from 'bullmq';
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
  enqueue(name: string, data: JobData, options?: EnqueueOptions): Promise<void>;
  /** Many jobs of one name in one round trip. */
  enqueueMany(name: string, jobs: Array<{ data: JobData; options?: EnqueueOptions }>): Promise<void>;
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

export class BullJobQueue implements JobQueue {
  private definitions = new Map<string, JobDefinition>();
  private queues = new Map<string, Queue>();
  private workers: Worker[] = [];
  private background: BackgroundTasks;

  constructor(
    private connection: ConnectionOptions,
    private prefix: string,
    private logger: Logger,
  ) {
    this.background = new BackgroundTasks(logger);
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
      queue = new Queue(name, { connection: this.connection, prefix: this.prefix });
      this.queues.set(name, queue);
    }
    return queue;
  }

  private jobOptions(definition: JobDefinition, options: EnqueueOptions) {
    return {
      jobId: options.jobId,
      delay: options.delayMs,
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
    const definition = this.definition(name);
    if (options.jobId && options.replaceFinished) {
      const existing = await this.queue(name).getJob(options.jobId);
      if (existing && ((await existing.isCompleted()) || (await existing.isFailed()))) await existing.remove();
    }
    await this.queue(name).add(name, data, this.jobOptions(definition, options));
  }

  async enqueueMany(name: string, jobs: Array<{ data: JobData; options?: EnqueueOptions }>) {
    const definition = this.definition(name);
    if (jobs.some((job) => job.options?.replaceFinished)) {
      for (const job of jobs) await this.enqueue(name, job.data, job.options);
      return;
    }
    await this.queue(name).addBulk(
      jobs.map((job) => ({ name, data: job.data, opts: this.jobOptions(definition, job.options ?? {}) })),
    );
  }

  async startWorkers() {
    for (const definition of this.definitions.values()) {
      const backoff = definition.backoffMs ?? defaultBackoff;
      const worker = new Worker(
        definition.name,
        async (job) => definition.process(job.data as JobData, { id: String(job.id), attempt: job.attemptsMade + 1 }),
        {
          connection: this.connection,
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
    await Promise.allSettled([...this.queues.values()].map((q) => q.close()));
  }
}
