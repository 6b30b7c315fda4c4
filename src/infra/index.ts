import path from 'node:path';
import type { Config } from '../config.js';
import { openDatabase, type Database } from './database.js';
import { InProcessEventBus, RedisEventBus, type EventBus } from './event-bus.js';
import { EventConsumers } from './event-consumers.js';
import { EventLog } from './event-log.js';
import { FileStore } from './file-store.js';
import { S3FileStore } from './file-store-s3.js';
import type { JobQueue } from './job-queue.js';
import { BullJobQueue } from './job-queue-bullmq.js';
import { InProcessJobQueue } from './job-queue-in-process.js';
import { createLogger, type Logger } from './logger.js';
import { LocalPresenceTracker, RedisPresenceTracker, type PresenceTracker } from './presence-tracker.js';
import { Limiters } from './rate-limit.js';

export interface Infrastructure {
  config: Config;
  logger: Logger;
  database: Database;
  bus: EventBus;
  queue: JobQueue;
  eventLog: EventLog;
  /** The consumers of committed events (webhooks, bots, e-mail), run beside the workers. */
  eventConsumers: EventConsumers;
  files: FileStore;
  /** Counters shared by every node (credential throttle, rate limits). */
  limiters: Limiters;
  /** Who has a live websocket, on any node; the presence service uses and disposes it. */
  presence: PresenceTracker;
  /** Answers whether every backing service responds. */
  ready(): Promise<boolean>;
  close(): Promise<void>;
}

export interface InfrastructureOptions {
  /** Keep the embedded database in memory (tests). */
  inMemory?: boolean;
  logger?: Logger;
}

export async function createInfrastructure(config: Config, options: InfrastructureOptions = {}): Promise<Infrastructure> {
  const logger = options.logger ?? createLogger(config.logLevel);
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    poolSize: config.databasePoolSize,
    connectTimeoutMs: config.databaseConnectTimeoutMs,
    pgliteDir: options.inMemory ? 'memory://' : path.join(config.dataDir, 'db'),
    logger,
  });

  let bus: EventBus;
  let queue: JobQueue;
  let redisReady: () => Promise<boolean> = async () => true;
  if (config.redisUrl) {
    const redisBus = new RedisEventBus(config.redisUrl, config.redisPrefix, logger, { commandTimeoutMs: config.redisCommandTimeoutMs });
    await redisBus.ready();
    bus = redisBus;
    redisReady = () => redisBus.ping();
    const url = new URL(config.redisUrl);
    queue = new BullJobQueue(
      {
        host: url.hostname,
        port: Number(url.port || 6379),
        password: url.password || undefined,
        username: url.username || undefined,
        db: url.pathname.length > 1 ? Number(url.pathname.slice(1)) : 0,
        maxRetriesPerRequest: null,
      },
      `${config.redisPrefix}:bull`,
      logger,
      { commandTimeoutMs: config.redisCommandTimeoutMs },
    );
  } else {
    bus = new InProcessEventBus();
    queue = new InProcessJobQueue(logger);
  }

  const limiters = await Limiters.open(config, logger);
  // The S3 SDK is loaded (by init) only where FILES_URL asks for it: most starts never need it.
  const s3Files = config.filesS3 ? new S3FileStore(config.filesS3) : null;
  const files = s3Files ?? new FileStore(config.filesDir);
  await files.init();
  if (config.databaseUrl && !config.filesS3) {
    // A shared database with node-local files: an upload taken by this node is missing on every other one.
    logger.warn(
      { filesDir: config.filesDir },
      `files are kept in the local folder ${config.filesDir} while the database is shared (DATABASE_URL): other nodes cannot read them; set FILES_URL=s3://bucket/prefix (or share this folder between the nodes)`,
    );
  }
  const eventLog = new EventLog(database.prisma, bus, logger);
  const eventConsumers = new EventConsumers(database.prisma, eventLog, bus, config.eventSweepIntervalMs, logger);
  const presence = config.redisUrl
    ? new RedisPresenceTracker(config.redisUrl, config.redisPrefix, config.presenceTtlMs)
    : new LocalPresenceTracker();

  return {
    config,
    logger,
    database,
    bus,
    queue,
    eventLog,
    eventConsumers,
    files,
    limiters,
    presence,
    async ready() {
      // A store that does not answer within the deadline is as good as down, whatever its client would wait.
      const [db, redis, store] = await Promise.all([
        within(database.ping(), config.readyTimeoutMs),
        within(redisReady(), config.readyTimeoutMs),
        // A full disk: uploads would answer 507 (file-store.ts).
        within(files.writable(), config.readyTimeoutMs),
      ]);
      return db && redis && store;
    },
    async close() {
      await queue.close();
      await bus.close();
      await limiters.close();
      await database.close();
      s3Files?.client.destroy();
    },
  };
}

/** `check`'s answer, or false when it has none within `ms`. */
async function within(check: Promise<boolean>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  try {
    return await Promise.race([check.catch(() => false), late]);
  } finally {
    clearTimeout(timer);
  }
}
