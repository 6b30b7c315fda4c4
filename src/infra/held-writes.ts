import type { Logger } from './logger.js';

// Writes to Redis made after a database commit (event publishes, job enqueues) must never fail the
// answer of the write that committed. While Redis does not answer, they are held here, in this
// process, and made later in the order they came, as soon as it answers again. Each kind of write
// also has a slower path that recovers it should this process stop first or the hold overflow:
// events are in the event log (subscriptions catch up by sequence, webhooks are swept from it),
// cached lookups expire, and jobs have their sweeps.

export interface HeldWriteStats {
  /** Writes held since start (Redis unavailable or too slow when they were made). */
  held: number;
  /** Held writes made since, once Redis answered. */
  sent: number;
  /** Held writes given up: over capacity, refused by Redis repeatedly, or still held at close. */
  dropped: number;
  /** Held now. */
  waiting: number;
}

export interface HeldWritesOptions<T> {
  /** What the writes are, for the log: `event bus`, `job queue`. */
  what: string;
  /** Makes one write; rejects when Redis did not take it. */
  send(write: T): Promise<void>;
  /** True while the connection can take commands; held writes are sent once it is. */
  connected(): boolean;
  logger: Logger;
  /** Most writes held at once; past it the oldest are dropped. */
  capacity: number;
}

const batchSize = 100;
const firstRetryMs = 200;
const maxRetryMs = 2000;
/** A write refused this many times (not for want of Redis) is dropped: it would block the rest. */
const maxRefusals = 3;

/** True for failures of reaching Redis (down, too slow, loading), as opposed to a write it refused. */
export function redisUnavailable(error: unknown): boolean {
  const message = error instanceof Error ? error.message : String(error);
  return /timed out|connection is closed|writeable|max retries|ECONN|EPIPE|ETIMEDOUT|EHOSTUNREACH|ENETUNREACH|LOADING|BUSY|MASTERDOWN|TRYAGAIN/i.test(message);
}

export class HeldWrites<T> {
  private writes: Array<{ write: T; refusals: number }> = [];
  private counts = { held: 0, sent: 0, dropped: 0 };
  private flushing: Promise<void> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private retryMs = firstRetryMs;
  private closed = false;

  constructor(private options: HeldWritesOptions<T>) {}

  stats(): HeldWriteStats {
    return { ...this.counts, waiting: this.writes.length };
  }

  /**
   * Makes a write now when nothing is held and the connection is up; otherwise (or when it fails)
   * holds it. Never rejects: the caller's answer does not depend on Redis.
   */
  async write(write: T): Promise<void> {
    if (this.writes.length || !this.options.connected()) {
      this.hold(write);
      return;
    }
    try {
      await this.options.send(write);
    } catch (error) {
      this.hold(write, error);
    }
  }

  private hold(write: T, error?: unknown) {
    if (this.closed) {
      this.counts.dropped++;
      return;
    }
    if (!this.writes.length) {
      this.options.logger.warn(
        { err: error instanceof Error ? error.message : undefined, held: this.counts.held + 1 },
        `${this.options.what}: Redis unavailable; holding writes to make them once it answers`,
      );
    }
    this.writes.push({ write, refusals: 0 });
    this.counts.held++;
    if (this.writes.length > this.options.capacity) {
      this.writes.shift();
      this.counts.dropped++;
      if (this.counts.dropped % 1000 === 1) {
        this.options.logger.error({ dropped: this.counts.dropped }, `${this.options.what}: too many writes held; dropping the oldest`);
      }
    }
    this.retryLater();
  }

  private retryLater() {
    if (this.timer || this.closed) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.flush();
    }, this.retryMs);
    this.timer.unref();
    this.retryMs = Math.min(this.retryMs * 2, maxRetryMs);
  }

  /** Makes the held writes, in order, a batch at a time (one round trip each); called when the connection is back. */
  flush(): Promise<void> {
    this.flushing ??= this.drain().finally(() => (this.flushing = null));
    return this.flushing;
  }

  private async drain() {
    const before = this.counts.sent;
    while (this.writes.length && this.options.connected()) {
      const batch = this.writes.slice(0, batchSize);
      const results = await Promise.allSettled(batch.map((held) => this.options.send(held.write)));
      const kept: typeof batch = [];
      results.forEach((result, i) => {
        if (result.status === 'fulfilled') this.counts.sent++;
        else if (!redisUnavailable(result.reason) && ++batch[i].refusals >= maxRefusals) {
          this.counts.dropped++;
          this.options.logger.error({ err: (result.reason as Error)?.message }, `${this.options.what}: a held write was refused; dropped`);
        } else kept.push(batch[i]);
      });
      this.writes.splice(0, batch.length, ...kept);
      if (kept.length) break;
    }
    if (this.writes.length) {
      this.retryLater();
      return;
    }
    this.retryMs = firstRetryMs;
    if (this.counts.sent > before) {
      this.options.logger.info({ made: this.counts.sent - before, ...this.counts }, `${this.options.what}: Redis answers again; held writes made`);
    }
  }

  /** Tries once more to make what is held (when connected), then gives up the rest. */
  async close() {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.writes.length && this.options.connected()) await this.flush().catch(() => {});
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    if (this.writes.length) {
      this.counts.dropped += this.writes.length;
      this.options.logger.warn({ dropped: this.writes.length }, `${this.options.what}: writes still held at close were not made`);
      this.writes = [];
    }
  }
}
