import { UnrecoverableError } from 'bullmq';
import type { z } from 'zod';
import type { HeldWriteStats } from './held-writes.js';
import type { Logger } from './logger.js';

// Background jobs. The same processor functions run in the in-process runner (embedded,
// job-queue-in-process.ts) and in BullMQ workers (REDIS_URL, job-queue-bullmq.ts), in the server
// or in `workers/` processes.
//
// A job type is declared once, by the module that owns the work: its queue name and the schema of
// its data. Producers enqueue through it (data of the wrong shape does not compile, and is refused
// at run time too); the processor registered for it (workers/jobs.ts) gets the data parsed.

export type JobData = Record<string, unknown>;
export interface JobContext {
  id: string;
  attempt: number;
}

/** A kind of job: its queue name and the schema of its data (identifiers, never whole records). */
export interface JobType<S extends z.ZodType<JobData> = z.ZodType<JobData>> {
  readonly name: string;
  readonly data: S;
}

export function jobType<S extends z.ZodType<JobData>>(name: string, data: S): JobType<S> {
  return { name, data };
}

/** The data a producer passes for a job type. */
export type JobInput<T extends JobType> = z.input<T['data']>;
/** The data the job's processor receives, parsed. */
export type JobOutput<T extends JobType> = z.output<T['data']>;

export interface JobDefinition<T extends JobType = JobType> {
  job: T;
  process: (data: JobOutput<T>, job: JobContext) => Promise<unknown>;
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

/**
 * A sweep beside the workers: `sweep` once at start, then every `intervalMs`, never two at once (a
 * tick while one runs is skipped); a failed sweep is logged (`failure`) and the next tries again.
 * Stopping waits for the sweep in progress, then for `stopped` (work the sweeps started).
 */
export function periodicSweep(options: {
  name: string;
  intervalMs: number;
  sweep: () => Promise<unknown>;
  logger: Logger;
  failure: string;
  /** Told first when the task stops, so that a long sweep can end early. */
  stopping?: () => void;
  stopped?: () => Promise<unknown>;
}): BackgroundTask {
  return {
    name: options.name,
    start: async () => {
      let stopping = false;
      let sweeping: Promise<unknown> | undefined;
      const tick = () => {
        if (stopping) return;
        sweeping ??= options
          .sweep()
          .catch((error) => options.logger.warn({ err: error instanceof Error ? error.message : String(error) }, options.failure))
          .finally(() => (sweeping = undefined));
      };
      const timer = setInterval(tick, options.intervalMs);
      timer.unref();
      tick();
      return async () => {
        stopping = true;
        options.stopping?.();
        clearInterval(timer);
        await sweeping;
        await options.stopped?.();
      };
    },
  };
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
  /** Registers the processor of a job type (see workers/jobs.ts). */
  define<T extends JobType>(definition: JobDefinition<T>): void;
  /**
   * Queues a job. Producers call it after a commit, so it does not fail for want of Redis, nor wait
   * for it longer than a short bound: while Redis does not answer, jobs are held in this process and
   * queued once it does. It throws for data its type's schema refuses, and for a type no processor
   * was defined for.
   */
  enqueue<T extends JobType>(job: T, data: JobInput<T>, options?: EnqueueOptions): Promise<void>;
  /** Many jobs of one type in one round trip. */
  enqueueMany<T extends JobType>(job: T, jobs: Array<{ data: JobInput<T>; options?: EnqueueOptions }>): Promise<void>;
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

/** The job's data as its schema reads it; a producer's mistake, so it throws at the producer. */
export function checkedData<T extends JobType>(job: T, data: JobInput<T>): JobData {
  const parsed = job.data.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new TypeError(`invalid ${job.name} job data: ${issue.path.join('.') || '(root)'}: ${issue.message}`);
  }
  return parsed.data;
}

/**
 * Runs a job's processor on its data, parsed again: a job queued by an older version (or edited in
 * Redis) that no longer fits the schema fails for good instead of retrying.
 */
export function runProcessor(definition: JobDefinition, data: unknown, job: JobContext) {
  const parsed = definition.job.data.safeParse(data);
  if (!parsed.success) throw new PermanentJobError(`invalid ${definition.job.name} job data: ${parsed.error.message}`);
  return definition.process(parsed.data, job);
}

export const defaultBackoff = (attempt: number) => Math.min(2 ** attempt * 500, 60_000);

export function retryDelay(definition: JobDefinition, attempt: number, error: unknown) {
  if (error instanceof RetryJobError) return Math.max(0, error.delayMs);
  return (definition.backoffMs ?? defaultBackoff)(attempt);
}

/** Starts background tasks and stops them in reverse order. */
export class BackgroundTasks {
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
