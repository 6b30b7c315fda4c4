import { createHash } from 'node:crypto';
import { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { Config } from '../config.js';
import type { Logger } from './logger.js';

// Counters every node shares: rate-limiter-flexible over Redis (production) or in memory
// (embedded). Keys live under `<REDIS_PREFIX>:rl:<name>:` and hold digests, never e-mails, tokens
// or addresses.

export interface CounterOptions {
  /** A short name, part of every key. */
  name: string;
  points: number;
  durationSeconds: number;
  /**
   * A key that reaches `points` through `consume` is then refused from this process's memory until
   * its window ends, without asking Redis again.
   */
  blockInMemory?: boolean;
}

/** A short digest of a key's parts: what the store sees instead of them. */
export function keyDigest(value: string): string {
  return createHash('sha256').update(value).digest('base64url').slice(0, 22);
}

/** KEYS[1]: the key's next free time; ARGV: now, interval (ms). Returns the slot taken. */
const reserveSlotScript = `
local now = tonumber(ARGV[1])
local interval = tonumber(ARGV[2])
local slot = math.max(now, tonumber(redis.call('GET', KEYS[1]) or '0'))
redis.call('SET', KEYS[1], slot + interval, 'PX', math.floor(slot + interval - now) + 60000)
return slot`;

export class Limiters {
  private constructor(
    private prefix: string,
    private redis: Redis | null,
  ) {}

  /**
   * With REDIS_URL, a connection of the counters' own: it fails at once while Redis is away, and
   * after REDIS_COMMAND_TIMEOUT_MS while Redis takes commands but does not answer (each counter's
   * in-memory insurance then counts for this node), rather than queueing commands behind a
   * reconnect as the event bus's publisher does.
   */
  static async open(config: Pick<Config, 'redisUrl' | 'redisPrefix' | 'redisCommandTimeoutMs'>, logger: Logger): Promise<Limiters> {
    if (!config.redisUrl) return new Limiters(config.redisPrefix, null);
    const redis = new Redis(config.redisUrl, {
      lazyConnect: true,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      commandTimeout: config.redisCommandTimeoutMs,
      enableAutoPipelining: true,
    });
    redis.on('error', (error) => logger.warn({ err: error.message }, 'rate limit store error'));
    // Redis down or frozen at start does not stop the node: ioredis connects again by itself, and
    // meanwhile each counter's in-memory insurance counts.
    await redis.connect().catch((error: Error) => logger.warn({ err: error.message }, 'rate limit store not reachable at start; counting in memory until it is'));
    return new Limiters(config.redisPrefix, redis);
  }

  /** True when counts are shared with other nodes. */
  get shared() {
    return this.redis !== null;
  }

  counter({ name, points, durationSeconds, blockInMemory }: CounterOptions): RateLimiterAbstract {
    const keyPrefix = `${this.prefix}:rl:${name}`;
    const memory = new RateLimiterMemory({ keyPrefix, points, duration: durationSeconds });
    if (!this.redis) return memory;
    return new RateLimiterRedis({
      storeClient: this.redis,
      keyPrefix,
      points,
      duration: durationSeconds,
      rejectIfRedisNotReady: true,
      insuranceLimiter: memory,
      ...(blockInMemory ? { inMemoryBlockOnConsumed: points } : {}),
    });
  }

  private slots = new Map<string, number>();

  /**
   * Paces a key to one event per `intervalMs` (across nodes with Redis): answers the time, at or
   * after now, reserved for the caller's event, each caller getting the next free one. While Redis
   * is away this node paces alone.
   */
  async reserveSlot(name: string, key: string, intervalMs: number, now = Date.now()): Promise<number> {
    const id = `${this.prefix}:slot:${name}:${keyDigest(key)}`;
    if (this.redis) {
      try {
        return Number(await this.redis.eval(reserveSlotScript, 1, id, String(now), String(intervalMs)));
      } catch {
        // Paced by this node alone until Redis answers again.
      }
    }
    const slot = Math.max(now, this.slots.get(id) ?? 0);
    if (this.slots.size >= 10_000) for (const [k, next] of this.slots) if (next < now) this.slots.delete(k);
    this.slots.set(id, slot + intervalMs);
    return slot;
  }

  async close() {
    if (!this.redis) return;
    await this.redis.quit().catch(() => this.redis?.disconnect());
  }
}

/** The verdict on one request. */
export interface Allowance {
  allowed: boolean;
  /** Requests left in the window after this one. */
  remaining: number;
  /** Seconds until the window ends. */
  resetSeconds: number;
}

interface Tally {
  /** Counted here, not yet sent to the shared counter. */
  pending: number;
  /** Sent, answer not back yet. */
  inFlight: number;
  /** Every node's count, as the shared counter last answered. */
  shared: number;
  resetAt: number;
  digest?: string;
}

/** How often each node sends its counts to the shared counter and learns the others'. */
const syncMs = 100;

/**
 * Requests per key and window, decided from this process's memory: a request costs a map lookup.
 * With a shared counter (Redis), each key's requests of the last 100 ms go to it as one increment
 * and its answer (every node's total and the window's end) comes back into the tally, so all nodes
 * together may overshoot a limit only by what they serve within one such interval.
 */
export class BatchedLimit {
  private tallies = new Map<string, Tally>();
  private dirty = new Set<string>();
  private flushTimer: NodeJS.Timeout | undefined;
  private readonly windowMs: number;
  private nextSweep: number;

  constructor(
    readonly points: number,
    windowSeconds: number,
    private store: RateLimiterAbstract | null,
  ) {
    this.windowMs = windowSeconds * 1000;
    this.nextSweep = Date.now() + this.windowMs;
  }

  take(key: string, now = Date.now()): Allowance {
    // Ended windows are dropped once per window.
    if (now >= this.nextSweep) this.sweep(now);
    let tally = this.tallies.get(key);
    if (tally === undefined || tally.resetAt <= now) {
      tally = { pending: 0, inFlight: 0, shared: 0, resetAt: now + this.windowMs };
      this.tallies.set(key, tally);
    }
    const used = tally.shared + tally.inFlight + tally.pending;
    const resetSeconds = Math.max(1, Math.ceil((tally.resetAt - now) / 1000));
    if (used >= this.points) return { allowed: false, remaining: 0, resetSeconds };
    tally.pending += 1;
    if (this.store) {
      this.dirty.add(key);
      this.flushTimer ??= setTimeout(() => this.flush(), syncMs).unref();
    }
    return { allowed: true, remaining: this.points - used - 1, resetSeconds };
  }

  private flush() {
    this.flushTimer = undefined;
    const keys = this.dirty;
    this.dirty = new Set();
    for (const key of keys) {
      const tally = this.tallies.get(key);
      if (!tally || tally.pending === 0) continue;
      const sent = tally.pending;
      tally.pending = 0;
      tally.inFlight += sent;
      tally.digest ??= keyDigest(key);
      // One connection answers in order, so each answer covers every batch sent before it.
      this.store!.penalty(tally.digest, sent).then(
        (res: RateLimiterRes) => {
          tally.inFlight -= sent;
          tally.shared = res.consumedPoints;
          if (res.msBeforeNext > 0) tally.resetAt = Date.now() + res.msBeforeNext;
        },
        () => {
          // Neither Redis nor the insurance answered: what this node counted still counts.
          tally.inFlight -= sent;
          tally.shared += sent;
        },
      );
    }
  }

  private sweep(now: number) {
    this.nextSweep = now + this.windowMs;
    for (const [key, tally] of this.tallies) {
      if (tally.resetAt <= now && tally.pending === 0 && tally.inFlight === 0) this.tallies.delete(key);
    }
  }
}
