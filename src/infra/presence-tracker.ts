import { Redis } from 'ioredis';

// Which users have an open authenticated websocket, counted per connection. One node keeps them
// in memory; several nodes keep them in Redis, each connection an entry that its node refreshes
// (heartbeat) before it expires, so the connections of a node that dies expire with it.

export interface PresenceTracker {
  open(userId: string, connectionId: string): Promise<number>;
  close(userId: string, connectionId: string): Promise<number>;
  /** Live connections of a user, on any node. */
  count(userId: string): Promise<number>;
  /** Users whose connections may have expired without a close (a node died): to be checked, then forgotten. */
  stale(): Promise<string[]>;
  /** Keeps this node's connections alive. */
  heartbeat(): Promise<void>;
  forget(userId: string): Promise<void>;
  dispose(): Promise<void>;
}

export class LocalPresenceTracker implements PresenceTracker {
  private connections = new Map<string, Set<string>>();

  async open(userId: string, connectionId: string) {
    let set = this.connections.get(userId);
    if (!set) this.connections.set(userId, (set = new Set()));
    set.add(connectionId);
    return set.size;
  }

  async close(userId: string, connectionId: string) {
    const set = this.connections.get(userId);
    set?.delete(connectionId);
    if (set && !set.size) this.connections.delete(userId);
    return set?.size ?? 0;
  }

  async count(userId: string) {
    return this.connections.get(userId)?.size ?? 0;
  }

  async stale() {
    return [];
  }

  async heartbeat() {}

  async forget() {}

  async dispose() {
    this.connections.clear();
  }
}

export class RedisPresenceTracker implements PresenceTracker {
  private client: Redis | null = null;
  /** This node's connections: connection id to user id. */
  private local = new Map<string, string>();

  constructor(
    private url: string,
    private prefix: string,
    private ttlMs: number,
  ) {}

  /** Connected on first use: most processes (workers, tests without websockets) never need it. */
  private get redis() {
    if (!this.client) {
      this.client = new Redis(this.url, { maxRetriesPerRequest: 2 });
      // Failures surface on the commands themselves (the callers log them); ioredis would print them again.
      this.client.on('error', () => {});
    }
    return this.client;
  }

  private userKey = (userId: string) => `${this.prefix}:presence:user:${userId}`;
  private get usersKey() {
    return `${this.prefix}:presence:users`;
  }

  async open(userId: string, connectionId: string) {
    this.local.set(connectionId, userId);
    const expires = Date.now() + this.ttlMs;
    const [, , [, count]] = (await this.redis
      .multi()
      .zadd(this.userKey(userId), expires, connectionId)
      .zadd(this.usersKey, 'GT', expires, userId)
      .zcard(this.userKey(userId))
      .exec()) as Array<[Error | null, number]>;
    return count;
  }

  async close(userId: string, connectionId: string) {
    this.local.delete(connectionId);
    await this.redis.zrem(this.userKey(userId), connectionId);
    return this.count(userId);
  }

  async count(userId: string) {
    const [, [, count]] = (await this.redis
      .multi()
      .zremrangebyscore(this.userKey(userId), '-inf', Date.now())
      .zcard(this.userKey(userId))
      .exec()) as Array<[Error | null, number]>;
    return count;
  }

  async stale() {
    return this.redis.zrangebyscore(this.usersKey, '-inf', Date.now());
  }

  async heartbeat() {
    if (!this.local.size) return;
    const expires = Date.now() + this.ttlMs;
    const pipeline = this.redis.pipeline();
    for (const [connectionId, userId] of this.local) {
      pipeline.zadd(this.userKey(userId), expires, connectionId);
      pipeline.zadd(this.usersKey, 'GT', expires, userId);
    }
    await pipeline.exec();
  }

  async forget(userId: string) {
    // Only while still stale: a connection that refreshed it meanwhile keeps it listed.
    await this.redis.eval(
      "local s = redis.call('ZSCORE', KEYS[1], ARGV[1]) if s and tonumber(s) <= tonumber(ARGV[2]) then redis.call('ZREM', KEYS[1], ARGV[1]) end",
      1,
      this.usersKey,
      userId,
      Date.now(),
    );
  }

  async dispose() {
    this.local.clear();
    await this.client?.quit().catch(() => {});
    this.client = null;
  }
}
