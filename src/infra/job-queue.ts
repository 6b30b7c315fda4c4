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
  /** Delay before retry n (1-based), in milliseconds. */
  backoffMs?: (attempt: number) => number;
  concurrency?: number;
}

export interface EnqueueOptions {
  /** Idempotency key: a second enqueue with the same id is ignored while the first exists. */
  jobId?: string;
  delayMs?: number;
}

export interface JobQueue {
  define(definition: JobDefinition): void;
  enqueue(name: string, data: JobData, options?: EnqueueOptions): Promise<void>;
  /** Starts consuming jobs in this process. */
  startWorkers(): Promise<void>;
  /** Stops taking jobs and waits for the ones in flight. */
  close(): Promise<void>;
}

/** Permanent failure: the job is not retried. */
export class PermanentJobError extends UnrecoverableError {}

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

  constructor(private logger: Logger) {}

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
      const run = this.run(definition, id, data, attempt).finally(() => this.inFlight.delete(run));
      this.inFlight.add(run);
    }, delayMs);
    this.timers.add(timer);
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
      this.schedule(definition, id, data, attempt + 1, (definition.backoffMs ?? defaultBackoff)(attempt));
    }
  }

  async startWorkers() {
    this.running = true;
    for (const start of this.backlog.splice(0)) start();
  }

  async close() {
    this.closed = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    await Promise.allSettled([...this.inFlight]);
  }
}

export class BullJobQueue implements JobQueue {
  private definitions = new Map<string, JobDefinition>();
  private queues = new Map<string, Queue>();
  private workers: Worker[] = [];

  constructor(
    private connection: ConnectionOptions,
    private prefix: string,
    private logger: Logger,
  ) {}

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

  async enqueue(name: string, data: JobData, options: EnqueueOptions = {}) {
    const definition = this.definitions.get(name);
    if (!definition) throw new Error(`unknown job ${name}`);
    await this.queue(name).add(name, data, {
      jobId: options.jobId,
      delay: options.delayMs,
      attempts: definition.attempts ?? 3,
      backoff: { type: 'custom' },
      removeOnComplete: { count: 1000 },
      removeOnFail: { count: 5000 },
    });
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
          settings: { backoffStrategy: (attemptsMade: number) => backoff(attemptsMade) },
        },
      );
      worker.on('failed', (job, error) =>
        this.logger.warn({ job: definition.name, id: job?.id, err: error.message }, 'job attempt failed'),
      );
      worker.on('error', (error) => this.logger.warn({ err: error.message }, 'job worker error'));
      this.workers.push(worker);
    }
    await Promise.all(this.workers.map((w) => w.waitUntilReady()));
  }

  async close() {
    // Worker.close() waits for the jobs in flight to finish.
    await Promise.allSettled(this.workers.map((w) => w.close()));
    await Promise.allSettled([...this.queues.values()].map((q) => q.close()));
  }
}
