import { EventEmitter } from 'node:events';
import { Redis } from 'ioredis';
import { HeldWrites, type HeldWriteStats } from './held-writes.js';
import type { Logger } from './logger.js';

// Publish/subscribe between the parts of one node (embedded) or all nodes (Redis).
// Messages are small JSON objects: identifiers and sequence numbers, never whole records.

export type BusMessage = Record<string, unknown>;
export type BusHandler = (message: BusMessage) => void;

export interface EventBus {
  /**
   * Sends a message to every subscriber of the channel, on every node. Never rejects, and waits
   * at most a short bound: while Redis does not answer, messages are held and sent once it does.
   */
  publish(channel: string, message: BusMessage): Promise<void>;
  subscribe(channel: string, handler: BusHandler): () => void;
  /** Called whenever the live feed may have lost messages (e.g. a dropped Redis connection). */
  onGap(handler: () => void): () => void;
  /** Messages that could not be published at once (Redis away), and what became of them. */
  heldWrites(): HeldWriteStats;
  close(): Promise<void>;
}

const noneHeld: HeldWriteStats = { held: 0, sent: 0, dropped: 0, waiting: 0 };

export interface RedisEventBusOptions {
  /** Longest a publish waits for Redis before the message is held (default 1000 ms). */
  commandTimeoutMs?: number;
  /** Most messages held while Redis is away (default 10,000); past it the oldest are dropped. */
  holdCapacity?: number;
}

export class InProcessEventBus implements EventBus {
  private emitter = new EventEmitter().setMaxListeners(0);

  async publish(channel: string, message: BusMessage) {
    // Deliver asynchronously, as a network bus would, so publishers never run subscriber code.
    queueMicrotask(() => this.emitter.emit(channel, message));
  }

  subscribe(channel: string, handler: BusHandler) {
    this.emitter.on(channel, handler);
    return () => this.emitter.off(channel, handler);
  }

  onGap() {
    return () => {};
  }

  heldWrites() {
    return { ...noneHeld };
  }

  async close() {
    this.emitter.removeAllListeners();
  }
}

export class RedisEventBus implements EventBus {
  private publisher: Redis;
  private subscriber: Redis;
  private handlers = new Map<string, Set<BusHandler>>();
  private gapHandlers = new Set<() => void>();
  private hasConnected = false;
  /**
   * Publishes made while Redis was away or too slow. Events are in the event log already (readers
   * catch up by sequence, the webhook dispatcher sweeps it) and cache invalidations only shorten a
   * cache's lifetime, so a dropped one is late, never lost; sending them when Redis is back makes
   * them prompt again.
   */
  private held: HeldWrites<{ channel: string; data: string }>;

  constructor(
    url: string,
    private prefix: string,
    private logger: Logger,
    options: RedisEventBusOptions = {},
  ) {
    // Publishes of one tick go out in one write (order kept: one connection). A publish never waits
    // for a reconnect (no offline queue) and at most `commandTimeoutMs` for an answer: it is made
    // after a commit, and the write's answer must not depend on Redis.
    this.publisher = new Redis(url, {
      maxRetriesPerRequest: 1,
      enableOfflineQueue: false,
      enableAutoPipelining: true,
      commandTimeout: options.commandTimeoutMs ?? 1000,
    });
    this.held = new HeldWrites({
      what: 'event bus',
      send: async ({ channel, data }) => void (await this.publisher.publish(channel, data)),
      connected: () => this.publisher.status === 'ready',
      logger,
      capacity: options.holdCapacity ?? 10_000,
    });
    this.publisher.on('ready', () => void this.held.flush());
    this.subscriber = new Redis(url, { maxRetriesPerRequest: null });
    this.subscriber.on('messageBuffer', (channelBuf: Buffer, data: Buffer) => {
      const channel = channelBuf.toString().slice(this.prefix.length + 1);
      const set = this.handlers.get(channel);
      if (!set) return;
      let message: BusMessage;
      try {
        message = JSON.parse(data.toString());
      } catch {
        return;
      }
      for (const handler of set) handler(message);
    });
    // After a reconnect ioredis resubscribes, but whatever was published meanwhile is gone:
    // tell listeners so they catch up from the event log.
    this.subscriber.on('ready', () => {
      if (this.hasConnected) {
        this.logger.warn('event bus subscriber reconnected; signalling a gap');
        for (const handler of this.gapHandlers) handler();
      }
      this.hasConnected = true;
    });
    this.subscriber.on('error', (error) => this.logger.warn({ err: error.message }, 'event bus subscriber error'));
    this.publisher.on('error', (error) => this.logger.warn({ err: error.message }, 'event bus publisher error'));
  }

  private key(channel: string) {
    return `${this.prefix}:${channel}`;
  }

  async ready() {
    await Promise.all([this.waitReady(this.publisher), this.subscriber.ping()]);
  }

  /**
   * Without an offline queue a command sent before the connection is up fails: wait for it. A
   * connection error (Redis down, restarting, or frozen so that the ready check times out) is not
   * the end: ioredis connects again, and a node started meanwhile waits for it (each error is
   * logged) instead of failing to start.
   */
  private async waitReady(connection: Redis) {
    if (connection.status === 'ready') return;
    await new Promise<void>((resolve) => connection.once('ready', () => resolve()));
  }

  async publish(channel: string, message: BusMessage) {
    await this.held.write({ channel: this.key(channel), data: JSON.stringify(message) });
  }

  heldWrites() {
    return this.held.stats();
  }

  subscribe(channel: string, handler: BusHandler) {
    let set = this.handlers.get(channel);
    if (!set) {
      set = new Set();
      this.handlers.set(channel, set);
      void this.subscriber.subscribe(this.key(channel)).catch((error) =>
        this.logger.warn({ err: error.message, channel }, 'event bus subscribe failed'),
      );
    }
    set.add(handler);
    return () => {
      const current = this.handlers.get(channel);
      if (!current) return;
      current.delete(handler);
      if (current.size === 0) {
        this.handlers.delete(channel);
        void this.subscriber.unsubscribe(this.key(channel)).catch(() => {});
      }
    };
  }

  onGap(handler: () => void) {
    this.gapHandlers.add(handler);
    return () => this.gapHandlers.delete(handler);
  }

  async ping() {
    try {
      return (await this.publisher.ping()) === 'PONG';
    } catch {
      return false;
    }
  }

  async close() {
    this.handlers.clear();
    this.gapHandlers.clear();
    await this.held.close();
    await Promise.allSettled([this.publisher.quit(), this.subscriber.quit()]);
  }
}
