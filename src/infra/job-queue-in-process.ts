import { UnrecoverableError } from 'bullmq';
import type { HeldWriteStats } from './held-writes.js';
import {
  BackgroundTasks,
  checkedData,
  retryDelay,
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

// The embedded driver: jobs run in this process, with the same attempts, backoff and concurrency
// as BullMQ workers would give them. Jobs queued but not run die with the process; each kind of
// work has its own sweep for that (see BullJobQueue's `held`).

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

  async enqueueMany<T extends JobType>(job: T, jobs: Array<{ data: JobInput<T>; options?: EnqueueOptions }>) {
    // Inside a request that runs in one transaction, its job waits for the commit (its rows are not there before).
    if (afterRequestCommit(() => this.enqueueMany(job, jobs))) return;
    for (const each of jobs) await this.enqueue(job, each.data, each.options);
  }

  define<T extends JobType>(definition: JobDefinition<T>) {
    this.definitions.set(definition.job.name, definition as unknown as JobDefinition);
  }

  async enqueue<T extends JobType>(job: T, input: JobInput<T>, options: EnqueueOptions = {}) {
    if (afterRequestCommit(() => this.enqueue(job, input, options))) return;
    if (this.closed) throw new Error('job queue is closed');
    const { name } = job;
    const data = checkedData(job, input);
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
    const busy = this.busy.get(definition.job.name) ?? 0;
    if (busy < (definition.concurrency ?? 8)) {
      this.busy.set(definition.job.name, busy + 1);
      start();
      return;
    }
    let queue = this.waiting.get(definition.job.name);
    if (!queue) this.waiting.set(definition.job.name, (queue = []));
    queue.push(start);
  }

  private releaseSlot(definition: JobDefinition) {
    const next = this.waiting.get(definition.job.name)?.shift();
    if (next && !this.closed) next();
    else this.busy.set(definition.job.name, (this.busy.get(definition.job.name) ?? 1) - 1);
  }

  private async run(definition: JobDefinition, id: string, data: JobData, attempt: number) {
    try {
      await runProcessor(definition, data, { id, attempt });
      this.pendingIds.delete(id);
    } catch (error) {
      const attempts = definition.attempts ?? 3;
      if (error instanceof UnrecoverableError || attempt >= attempts || this.closed) {
        this.pendingIds.delete(id);
        this.logger.warn({ job: definition.job.name, id, attempt, err: (error as Error).message }, 'job failed');
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
