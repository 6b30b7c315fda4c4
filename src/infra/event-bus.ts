import { EventEmitter } from 'node:events';
import { Redis } from 'ioredis';
import type { Logger } from './logger.js';

// Publish/subscribe between the parts of one node (embedded) or all nodes (Redis).
// Messages are small JSON objects: identifiers and sequence numbers, never whole records.

export type BusMessage = Record<string, unknown>;
export type BusHandler = (message: BusMessage) => void;

export interface EventBus {
  publish(channel: string, message: BusMessage): Promise<void>;
  subscribe(channel: string, handler: BusHandler): () => void;
  /** Called whenever the live feed may have lost messages (e.g. a dropped Redis connection). */
  onGap(handler: () => void): () => void;
  close(): Promise<void>;
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

  constructor(
    url: string,
    private prefix: string,
    private logger: Logger,
  ) {
    // Publishes of one tick go out in one write (order kept: one connection).
    this.publisher = new Redis(url, { maxRetriesPerRequest: 2, enableOfflineQueue: true, enableAutoPipelining: true });
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
    await Promise.all([this.publisher.ping(), this.subscriber.ping()]);
  }

  async publish(channel: string, message: BusMessage) {
    await this.publisher.publish(this.key(channel), JSON.stringify(message));
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
    await Promise.allSettled([this.publisher.quit(), this.subscriber.quit()]);
  }
}
