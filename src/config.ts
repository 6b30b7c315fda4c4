import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import ipaddr from 'ipaddr.js';
import { z } from 'zod';

// The only reader of process.env. A bad value stops the start with a message naming the variable.

const bool = z
  .enum(['true', 'false', '1', '0'])
  .transform((v) => v === 'true' || v === '1');

// Durations of the shared counters: in memory they expire by timer, and node's timers end within
// 2^31 ms (24.8 days).
const counterSeconds = z.coerce.number().int().positive().max(1_728_000, 'must be at most 1728000 (20 days)');

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  DATA_DIR: z.string().default('./data'),
  FILES_DIR: z.string().optional(),
  // Object storage shared by every node: s3://bucket or s3://bucket/prefix (AWS S3, MinIO, R2, ...).
  FILES_URL: z.string().regex(/^s3:\/\/[a-z0-9][a-z0-9.-]{1,61}[a-z0-9](\/.*)?$/, 'must be an s3://bucket or s3://bucket/prefix URL').optional(),
  S3_ENDPOINT: z.string().url('must be an http:// or https:// URL').optional(),
  S3_REGION: z.string().default('us-east-1'),
  S3_ACCESS_KEY_ID: z.string().optional(),
  S3_SECRET_ACCESS_KEY: z.string().optional(),
  S3_FORCE_PATH_STYLE: bool.optional(),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
    .optional(),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(1000).optional(),
  DATABASE_CONNECT_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(5000),
  REDIS_URL: z.string().regex(/^rediss?:\/\//, 'must be a redis:// or rediss:// URL').optional(),
  REDIS_PREFIX: z.string().default('sp'),
  REDIS_COMMAND_TIMEOUT_MS: z.coerce.number().int().min(50).max(60_000).default(1000),
  READY_TIMEOUT_MS: z.coerce.number().int().min(50).max(60_000).default(1000),
  JWT_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  JWT_EXPIRES_IN: z.string().regex(/^\d+[smhd]?$/, 'must be a duration such as 3600, 30m, 12h or 7d').default('7d'),
  BCRYPT_ROUNDS: z.coerce.number().int().min(4).max(15).default(10),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  BODY_LIMIT_BYTES: z.coerce.number().int().positive().default(1024 * 1024),
  WS_MAX_PAYLOAD_BYTES: z.coerce.number().int().positive().default(64 * 1024),
  // Operations (subscriptions, and queries and mutations still running) open at once on one
  // websocket, and over all the websockets of one token on this node.
  WS_MAX_OPERATIONS_PER_SOCKET: z.coerce.number().int().positive().default(100),
  WS_MAX_OPERATIONS_PER_TOKEN: z.coerce.number().int().positive().default(500),
  // Websockets one account (or, for sockets without a token, one address) holds open at once on this node.
  WS_MAX_SOCKETS_PER_ACCOUNT: z.coerce.number().int().positive().default(32),
  // How far back (in events of the project) a subscription may resume with `after`.
  REALTIME_REPLAY_MAX_EVENTS: z.coerce.number().int().positive().default(10_000),
  PRESENCE_TTL: z.string().regex(/^\d+(ms|s|m|h|d)?$/, 'must be a duration such as 30s').default('30s'),
  GRAPHQL_MAX_DEPTH: z.coerce.number().int().positive().default(15),
  GRAPHQL_MAX_ALIASES: z.coerce.number().int().positive().default(30),
  GRAPHQL_MAX_COST: z.coerce.number().int().positive().default(5000),
  SIGNIN_MAX_FAILURES: z.coerce.number().int().positive().default(5),
  SIGNIN_LOCK_SECONDS: counterSeconds.default(60),
  SIGNIN_MAX_LOCK_SECONDS: counterSeconds.default(3600),
  SIGNIN_ADDRESS_MAX_FAILURES: z.coerce.number().int().positive().default(100),
  SIGNIN_ACCOUNT_MAX_FAILURES: z.coerce.number().int().positive().default(50),
  SIGNIN_WINDOW_SECONDS: counterSeconds.default(86_400),
  RATE_LIMIT_REQUESTS: z.coerce.number().int().positive().default(600),
  // One address may hide many people (an office, a mobile carrier): twice a token's budget.
  RATE_LIMIT_ANONYMOUS_REQUESTS: z.coerce.number().int().positive().default(1200),
  RATE_LIMIT_WINDOW_SECONDS: counterSeconds.default(60),
  AUTH_CACHE_MS: z.coerce.number().int().min(0).default(5000),
  CUSTOM_TOKEN_CLOCK_TOLERANCE_SECONDS: z.coerce.number().int().min(0).max(3600).default(30),
  // Audit entries older than this are removed by a background sweep (src/modules/audit).
  AUDIT_RETENTION_DAYS: z.coerce.number().int().min(1).max(36_500).default(365),
  // How often the data-retention sweeps (audit log, projects' retention_days) run.
  RETENTION_SWEEP_INTERVAL: z.string().regex(/^\d+(ms|s|m|h|d)?$/, 'must be a duration such as 1h').default('1h'),
  PROJECT_CACHE_MS: z.coerce.number().int().min(0).default(5000),
  RUN_WORKERS: bool.default(true),
  // How often the event consumers (webhooks, bots, e-mail) look for events past their cursors.
  EVENT_SWEEP_INTERVAL: z.string().regex(/^\d+(ms|s|m|h|d)?$/, 'must be a duration such as 2s').default('2s'),
  OUTBOUND_ALLOW_PRIVATE: bool.default(false),
  OUTBOUND_ALLOWED_HOSTS: z.string().optional(),
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().positive().default(10_000),
  WEBHOOK_RETRY_SCHEDULE: z
    .string()
    .regex(/^\s*\d+(ms|s|m|h|d)?\s*(,\s*\d+(ms|s|m|h|d)?\s*)*$/, 'must be a comma list of durations such as 5s,30s,2m,1h')
    .default('5s,30s,2m,10m,30m,1h,2h,4h,8h,12h,12h'),
  WEBHOOK_DISABLE_AFTER: z.string().regex(/^\d+(ms|s|m|h|d)?$/, 'must be a duration such as 12h or 3d').default('3d'),
  // The longest a target's Retry-After (on 429 and 503) may delay a delivery's next attempt.
  WEBHOOK_MAX_RETRY_AFTER: z.string().regex(/^\d+(ms|s|m|h|d)?$/, 'must be a duration such as 1h').default('1h'),
  WEBHOOK_SWEEP_INTERVAL: z.string().regex(/^\d+(ms|s|m|h|d)?$/, 'must be a duration such as 10s').default('10s'),
  WEBHOOK_CONCURRENCY: z.coerce.number().int().min(1).max(1000).default(64),
  WEBHOOK_WORKER_LOCK_MS: z.coerce.number().int().min(500).default(30_000),
  TIMER_SWEEP_INTERVAL: z.string().regex(/^\d+(ms|s|m|h|d)?$/, 'must be a duration such as 1s').default('1s'),
  BOT_SWEEP_INTERVAL: z.string().regex(/^\d+(ms|s|m|h|d)?$/, 'must be a duration such as 10s').default('10s'),
  BOT_SWEEP_GRACE: z.string().regex(/^\d+(ms|s|m|h|d)?$/, 'must be a duration such as 30s').default('30s'),
  BOT_SWEEP_WINDOW: z.string().regex(/^\d+(ms|s|m|h|d)?$/, 'must be a duration such as 1h').default('1h'),
  // Stored sizes are 32-bit integers: a larger limit would let an upload overflow its column.
  FILE_MAX_BYTES: z.coerce.number().int().positive().max(2 ** 31 - 1).default(10 * 1024 * 1024),
  // Images are decoded for thumbnails: a larger one (width x height) is refused before decoding.
  FILE_MAX_PIXELS: z.coerce.number().int().positive().default(50_000_000),
  FILE_ALLOWED_TYPES: z
    .string()
    .regex(/^\s*[\w.+-]+\/(\*|[\w.+-]+)\s*(,\s*[\w.+-]+\/(\*|[\w.+-]+)\s*)*$/, 'must be a comma list of media types such as image/png,audio/*')
    .optional(),
  KB_CHUNK_SIZE: z.coerce.number().int().min(100).max(20_000).default(1000),
  KB_CHUNK_OVERLAP: z.coerce.number().int().min(0).max(10_000).default(200),
  KB_FETCH_MAX_BYTES: z.coerce.number().int().positive().default(10 * 1024 * 1024),
  KB_FETCH_TIMEOUT_MS: z.coerce.number().int().positive().default(15_000),
  KB_INDEX_RETRY_DELAY: z.string().regex(/^\d+(ms|s|m|h|d)?$/, 'must be a duration such as 1s').default('1s'),
  KB_INFLATE_MAX_BYTES: z.coerce.number().int().positive().default(50 * 1024 * 1024),
  KB_ARCHIVE_MAX_ENTRIES: z.coerce.number().int().positive().default(10_000),
  KB_EXTRACT_TIMEOUT_MS: z.coerce.number().int().positive().default(60_000),
  // Below 128 MB a worker cannot even load the PDF and Word parsers.
  KB_EXTRACT_MAX_MEMORY_MB: z.coerce.number().int().min(128).default(1024),
  KB_EXTRACT_WORKERS: z.coerce.number().int().min(1).max(64).default(2),
  KB_SITEMAP_TIMEOUT_MS: z.coerce.number().int().positive().default(30_000),
  KB_SITEMAP_MAX_DOCUMENTS: z.coerce.number().int().positive().default(50),
  // The knowledge bases' local sentence encoder (src/modules/kb/indexing/encoder.ts); default: on in embedded mode, outside tests.
  KB_ENCODER: z.enum(['local', 'off']).optional(),
  // How chunks are ranked when vectors exist, and when a question is abstained from (qa.ts).
  KB_RANKING: z.enum(['lexical', 'fusion', 'rrf']).default('fusion'),
  KB_DENSE_WEIGHT: z.coerce.number().min(0).max(1).default(0.3),
  KB_MIN_COVERAGE: z.coerce.number().min(0).max(1).default(0.3),
  KB_MIN_SIMILARITY: z.coerce.number().min(-1).max(1).optional(),
  // Large knowledge bases (chunks from KB_LARGE_NAMESPACE) take lexical candidates from a question's rarest stems, up to KB_CANDIDATE_BUDGET chunks.
  KB_LARGE_NAMESPACE: z.coerce.number().int().min(1).default(20_000),
  KB_CANDIDATE_BUDGET: z.coerce.number().int().min(1).default(1_000),
  LLM_BASE_URL: z.string().url('must be a URL such as http://127.0.0.1:11434/v1').optional(),
  LLM_API_KEY: z.string().optional(),
  LLM_MODEL: z.string().default('gpt-4o-mini'),
  LLM_TIMEOUT_MS: z.coerce.number().int().positive().default(60_000),
  EMBEDDINGS_BASE_URL: z.string().url('must be a URL such as http://127.0.0.1:11434/v1').optional(),
  EMBEDDINGS_API_KEY: z.string().optional(),
  EMBEDDINGS_MODEL: z.string().default('text-embedding-3-small'),
  EMBEDDINGS_DIMENSIONS: z.coerce.number().int().min(1).max(16_000).optional(),
  GRAPHIQL: bool.optional(),
  // Who may introspect the schema: everyone, signed-in callers only, or nobody.
  GRAPHQL_INTROSPECTION: z.enum(['public', 'authenticated', 'off']).optional(),
  // E-mail (issue 20): SMTP when SMTP_URL is set, else .eml files under DATA_DIR/outbox.
  SMTP_URL: z.string().regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL such as smtp://user:pass@host:587').optional(),
  MAIL_FROM: z.string().min(3).default('Support platform <no-reply@localhost>'),
  PUBLIC_URL: z.string().url('must be a URL such as https://support.example.com').optional(),
  PASSWORD_RESET_TTL: z.string().regex(/^\d+(ms|s|m|h|d)?$/, 'must be a duration such as 30m').default('1h'),
  EMAIL_VERIFICATION_TTL: z.string().regex(/^\d+(ms|s|m|h|d)?$/, 'must be a duration such as 2d').default('2d'),
  EMAIL_ATTEMPTS: z.coerce.number().int().min(1).max(50).default(6),
  EMAIL_INTERNAL_SEND_LIMIT: z.coerce.number().int().positive().default(100),
  EMAIL_INTERNAL_SEND_WINDOW_SECONDS: counterSeconds.default(3600),
});

export type Env = z.infer<typeof envSchema>;

/**
 * Twice the cores, at least 4 (the PostgreSQL wiki's rule, cores × 2 plus disks): more connections
 * than the database can run at once only share its cores, and each statement costs more CPU (on
 * 2 cores, a lead search cost PostgreSQL 2.5–2.8 ms with 20 connections busy, 1.5 ms with 4).
 * Requests beyond the pool wait for a connection in the node, in order.
 */
export function defaultDatabasePoolSize(): number {
  return Math.max(4, 2 * availableParallelism());
}

// Documents, raster images and media. Active content (HTML, SVG, scripts) is left out on purpose.
const defaultAllowedFileTypes = [
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'image/bmp',
  'image/tiff',
  'application/pdf',
  'text/plain',
  'text/csv',
  'text/markdown',
  'application/json',
  'application/rtf',
  // Legacy .doc/.xls/.ppt: their bytes only say "compound file".
  'application/x-cfb',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  'application/vnd.oasis.opendocument.text',
  'application/vnd.oasis.opendocument.spreadsheet',
  'application/vnd.oasis.opendocument.presentation',
  'application/zip',
  'audio/*',
  'video/*',
];

export interface S3Settings {
  bucket: string;
  /** Key prefix, without a trailing slash ('' for the bucket's root). */
  prefix: string;
  endpoint?: string;
  region: string;
  credentials?: { accessKeyId: string; secretAccessKey: string };
  forcePathStyle: boolean;
}

function s3Settings(env: Env): S3Settings | null {
  if (!env.FILES_URL) {
    for (const name of ['S3_ENDPOINT', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'] as const) {
      if (env[name]) throw new ConfigError(`invalid environment variable ${name}: is set but FILES_URL is not (set FILES_URL=s3://bucket/prefix to store files in object storage)`);
    }
    return null;
  }
  if (env.FILES_DIR) throw new ConfigError('invalid environment variable FILES_DIR: FILES_DIR and FILES_URL name two file stores; set one');
  if (Boolean(env.S3_ACCESS_KEY_ID) !== Boolean(env.S3_SECRET_ACCESS_KEY)) {
    throw new ConfigError(`invalid environment variable ${env.S3_ACCESS_KEY_ID ? 'S3_SECRET_ACCESS_KEY' : 'S3_ACCESS_KEY_ID'}: S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY are set together`);
  }
  const url = new URL(env.FILES_URL);
  return {
    bucket: url.hostname,
    prefix: decodeURIComponent(url.pathname).replace(/^\/+|\/+$/g, ''),
    endpoint: env.S3_ENDPOINT,
    region: env.S3_REGION,
    credentials: env.S3_ACCESS_KEY_ID && env.S3_SECRET_ACCESS_KEY ? { accessKeyId: env.S3_ACCESS_KEY_ID, secretAccessKey: env.S3_SECRET_ACCESS_KEY } : undefined,
    // MinIO and most self-hosted stores answer on one host, the bucket in the path.
    forcePathStyle: env.S3_FORCE_PATH_STYLE ?? Boolean(env.S3_ENDPOINT),
  };
}

export interface Config {
  env: Env['NODE_ENV'];
  port: number;
  host: string;
  dataDir: string;
  filesDir: string;
  /** Object storage for files; null keeps them in `filesDir`. */
  filesS3: S3Settings | null;
  databaseUrl?: string;
  /** PostgreSQL connections each node keeps (see `defaultDatabasePoolSize`). */
  databasePoolSize: number;
  /**
   * Longest a request not yet begun waits for a PostgreSQL connection (one of the pool's to come
   * free, or a new one to open) before it answers 503 with nothing written: a database that hangs
   * or a flood of requests does not hold new requests forever. A request that has begun (held a
   * connection) waits its turn for the next ones instead (connection-admission.ts), and a new
   * connection is never waited for longer (DATABASE_CONNECT_TIMEOUT_MS, 5000).
   */
  databaseConnectTimeoutMs: number;
  redisUrl?: string;
  redisPrefix: string;
  /** Longest a publish or job enqueue made after a commit waits for Redis before it is held for later. */
  redisCommandTimeoutMs: number;
  /** How often the event consumers look for events past their cursors (event-consumers.ts). */
  eventSweepIntervalMs: number;
  /** /ready answers 503 when the database or Redis does not answer within this long. */
  readyTimeoutMs: number;
  jwtSecret: string;
  jwtExpiresInSeconds: number;
  bcryptRounds: number;
  logLevel: Env['LOG_LEVEL'];
  bodyLimitBytes: number;
  wsMaxPayloadBytes: number;
  /** Operations open at once per websocket, and per token over its websockets on this node; more are refused (429). */
  wsMaxOperations: { perSocket: number; perToken: number };
  /** Websockets one account (sockets without a token: one address) holds open at once on this node. */
  wsMaxSocketsPerAccount: number;
  /** A subscription's `after` may be at most this many events behind the project's latest. */
  replayMaxEvents: number;
  /** A websocket not refreshed for this long (its node died) no longer keeps its teammate online. */
  presenceTtlMs: number;
  graphql: { maxDepth: number; maxAliases: number; maxCost: number; graphiql: boolean; introspection: 'public' | 'authenticated' | 'off' };
  /**
   * Failed credential checks (passwords, custom tokens, bot and server tokens). One account from
   * one address: after `maxFailures` consecutive failures it waits `lockSeconds`, doubled at each
   * further failure up to `maxLockSeconds`. One address over all accounts, and one account from
   * addresses it never signed in from: `addressMaxFailures` / `accountMaxFailures` per window.
   */
  /**
   * Seconds a custom token's `nbf` may lie ahead of this server's clock, and its `exp` behind it,
   * and still be taken (CUSTOM_TOKEN_CLOCK_TOLERANCE_SECONDS, 30): a site's clock a few seconds
   * off must not break its users' sign-in.
   */
  customTokenClockToleranceSeconds: number;
  signinThrottle: {
    maxFailures: number;
    lockSeconds: number;
    maxLockSeconds: number;
    addressMaxFailures: number;
    accountMaxFailures: number;
    windowSeconds: number;
  };
  /** Requests per window for each token, and for each address of calls without credentials. */
  rateLimit: { requests: number; anonymousRequests: number; windowSeconds: number };
  /** How long an account or membership lookup is reused; changes invalidate it on every node. */
  authCacheMs: number;
  auditRetentionDays: number;
  retentionSweepIntervalMs: number;
  projectCacheMs: number;
  runWorkers: boolean;
  /** Requests to addresses chosen by customers (webhook targets, crawled pages). */
  outbound: { allowPrivate: boolean; allowedHosts: string[] };
  webhooks: {
    timeoutMs: number;
    /** Delay before each retry, in ms, jitter not included; attempts = retries + 1. */
    retryScheduleMs: number[];
    /** A subscription failing for this long is disabled. */
    disableAfterMs: number;
    /** Bound on the delay a target's Retry-After may ask for (WEBHOOK_MAX_RETRY_AFTER). */
    maxRetryAfterMs: number;
    /** How often pending events and lost deliveries are looked for. */
    sweepIntervalMs: number;
    /** Deliveries in flight per worker process. */
    concurrency: number;
    /** A delivery job whose worker stops renewing its lock for this long is taken over by another worker. */
    workerLockMs: number;
  };
  /** Durable timers (scheduled messages): how often each node looks for the due ones. */
  timers: {
    sweepIntervalMs: number;
  };
  /** The bots' sweep for visitors' messages left unanswered (a process died before the bot's turn). */
  bots: {
    /** How often the sweep runs (also once at start). */
    sweepIntervalMs: number;
    /** A message this recent is left to the live turn, which may still be under way on some node. */
    sweepGraceMs: number;
    /** A message older than this is not answered any more. */
    sweepWindowMs: number;
  };
  /** Knowledge bases: chunking and the limits on documents fetched from urls or uploaded. */
  kb: {
    chunkSize: number;
    chunkOverlap: number;
    fetchMaxBytes: number;
    fetchTimeoutMs: number;
    /** Delay before an indexing that failed is tried again, doubled at each retry (3 attempts in all). */
    indexRetryDelayMs: number;
    /** Bytes everything decompressed from one document (archive entries, PDF streams, content encodings) may add up to. */
    inflateMaxBytes: number;
    archiveMaxEntries: number;
    /** PDF and Word documents are read in worker threads: time and heap each document may take, and how many threads. */
    extractTimeoutMs: number;
    extractMaxMemoryMb: number;
    extractWorkers: number;
    /** One deadline for a whole `POST /kb/sitemap` call, and the sitemap documents it may fetch. */
    sitemapTimeoutMs: number;
    sitemapMaxDocuments: number;
    /** Dense retrieval with the local sentence encoder when no embeddings endpoint is configured. */
    encoder: 'local' | 'off';
    /**
     * With vectors: `lexical` ranks by BM25 alone (vectors serve abstention), `fusion` by min-max
     * fusion giving `denseWeight` to cosine similarity, `rrf` by reciprocal-rank fusion.
     */
    ranking: 'lexical' | 'fusion' | 'rrf';
    denseWeight: number;
    /** Abstention: the best chunk must hold this share of the question's meaningful words, or be this similar (cosine; unset: the encoder's own floor). */
    minCoverage: number;
    minSimilarity?: number;
    /** Chunks from which a namespace's questions take candidates from their rarest stems only, and how many chunks those may bring. */
    largeNamespace: number;
    candidateBudget: number;
  };
  /** OpenAI-compatible chat endpoint for answers (no baseUrl: extractive answers); model is the default of new knowledge bases. */
  llm: { baseUrl?: string; apiKey?: string; model: string; timeoutMs: number };
  /** OpenAI-compatible embeddings endpoint; null: lexical retrieval only. */
  embeddings: { baseUrl: string; apiKey?: string; model: string; dimensions?: number } | null;
  /** Uploads: size limit, the media types accepted (detected from the bytes; `type/*` wildcards), pixel budget of images. */
  files: { maxBytes: number; allowedTypes: string[]; maxPixels: number };
  /**
   * E-mail: SMTP through nodemailer with `smtpUrl`, else each message is an .eml file in `outboxDir`.
   * `publicUrl` starts the links in messages. Reset and verification links expire after their TTL;
   * internal sends are limited per project and window; notifications read the event log this often.
   */
  email: {
    smtpUrl?: string;
    from: string;
    publicUrl: string;
    outboxDir: string;
    passwordResetTtlMs: number;
    verificationTtlMs: number;
    attempts: number;
    internalSendLimit: number;
    internalSendWindowSeconds: number;
  };
  http: HttpSettings;
}

export class ConfigError extends Error {}

const openAiBaseUrl = 'https://api.openai.com/v1';

export function durationToSeconds(value: string): number {
  const match = /^(\d+)([smhd]?)$/.exec(value);
  if (!match) throw new ConfigError(`invalid duration ${value}`);
  const unit = { '': 1, s: 1, m: 60, h: 3600, d: 86400 }[match[2] as '' | 's' | 'm' | 'h' | 'd'];
  return Number(match[1]) * unit;
}

/** `50ms`, `5s`, `2m`, `1h`, `3d` or a bare number of seconds, in milliseconds. */
export function durationToMs(value: string): number {
  const match = /^(\d+)(ms|s|m|h|d)?$/.exec(value.trim());
  if (!match) throw new ConfigError(`invalid duration ${value}`);
  const unit = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 }[(match[2] ?? 's') as 'ms' | 's' | 'm' | 'h' | 'd'];
  return Number(match[1]) * unit;
}

/** The embedded default keeps a generated signing secret under DATA_DIR so tokens survive restarts. */
function embeddedJwtSecret(dataDir: string): string {
  const file = path.join(dataDir, 'jwt-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}

// --- HTTP conventions and the service's life cycle ---------------------------------------------

/** Which web pages (by origin) may call the API from a browser, and how a node stops. */
export interface HttpSettings {
  /**
   * `*`: any page may call the API, without credentials of the browser's own (cookies, TLS client
   * certificates); the API's credentials are headers a page sets itself, so it works with any page.
   * Otherwise the origins listed, each answered with its own origin and `Allow-Credentials`.
   */
  corsOrigins: '*' | string[];
  /** How long a browser may reuse a preflight's answer. */
  corsMaxAgeSeconds: number;
  /**
   * Whose `X-Forwarded-For` to believe for the client address (throttles, rate limits, the geo
   * lookup of a new request), as Express's `trust proxy`: nobody (the default; the socket's peer
   * is the client), every hop (`true`: the left-most address), a number of hops in front of the
   * server, or the addresses and ranges of the proxies (the right-most address not among them).
   */
  trustProxy: TrustProxy;
  /**
   * After SIGTERM/SIGINT: how long the node goes on accepting requests while /ready answers 503
   * (for a load balancer to take it out of rotation), then how long the requests in flight may
   * take before their connections are cut and the process exits.
   */
  shutdownDelayMs: number;
  shutdownTimeoutMs: number;
  /**
   * Slow clients (slowloris): a request's headers must arrive within `headersTimeoutMs` and the
   * whole request, body included, within `requestTimeoutMs`, or the connection is closed (408);
   * one client address holds at most `maxConnectionsPerAddress` connections at once (0: no cap,
   * for a node behind a proxy, which holds the connections itself).
   */
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  maxConnectionsPerAddress: number;
  /**
   * How long an idle keep-alive connection is kept. Longer than clients' and load balancers' own
   * (60 s is common), so that the client closes it first: a node closing a connection the client
   * is reusing at that moment resets the request sent on it (ECONNRESET), which a stalled event
   * loop makes likely with node's default of 5 s.
   */
  keepAliveTimeoutMs: number;
  /** API reads (GET, HEAD) answered at once; more wait their turn, writes never (src/http/read-admission.ts). 0: no limit. */
  readsInFlight: number;
}

const origin = /^https?:\/\/[^/\s,*]+$/i;
export type TrustProxy =
  | { kind: 'none' }
  | { kind: 'all' }
  | { kind: 'hops'; hops: number }
  | { kind: 'ranges'; ranges: string[] };

// TRUST_PROXY: false (default), true, a number of hops, or a comma list of addresses, CIDR ranges
// and the names loopback, linklocal, uniquelocal (as Express's trust proxy).
const namedRanges: Record<string, string[]> = {
  loopback: ['127.0.0.1/8', '::1/128'],
  linklocal: ['169.254.0.0/16', 'fe80::/10'],
  uniquelocal: ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', 'fc00::/7'],
};
const trustProxyValue = z
  .string()
  .trim()
  .transform((value, ctx): TrustProxy => {
    if (value === '' || value === 'false' || value === '0') return { kind: 'none' };
    if (value === 'true') return { kind: 'all' };
    if (/^\d+$/.test(value)) {
      const hops = Number(value);
      if (hops > 100) ctx.addIssue({ code: 'custom', message: 'must be at most 100 hops' });
      return { kind: 'hops', hops };
    }
    const ranges: string[] = [];
    for (const entry of value.split(',').map((e) => e.trim()).filter(Boolean)) {
      if (namedRanges[entry]) ranges.push(...namedRanges[entry]);
      else if (isRange(entry)) ranges.push(entry.includes('/') ? entry : `${entry}/${entry.includes(':') ? 128 : 32}`);
      else {
        ctx.addIssue({ code: 'custom', message: `must be true, false, a number of hops or a comma list of addresses, CIDR ranges, loopback, linklocal, uniquelocal (not ${entry})` });
        return z.NEVER;
      }
    }
    return { kind: 'ranges', ranges };
  });

function isRange(entry: string): boolean {
  try {
    if (entry.includes('/')) ipaddr.parseCIDR(entry);
    else ipaddr.parse(entry);
    return true;
  } catch {
    return false;
  }
}

const httpEnvSchema = z.object({
  CORS_ORIGINS: z
    .string()
    .refine(
      (value) => value.trim() === '*' || value.split(',').every((entry) => origin.test(entry.trim())),
      'must be * or a comma list of origins such as https://app.example.com,http://localhost:5173',
    )
    .default('*'),
  // Chromium caps a preflight's cache at 2 hours.
  CORS_MAX_AGE_SECONDS: z.coerce.number().int().min(0).max(7200).default(600),
  SHUTDOWN_DELAY_MS: z.coerce.number().int().min(0).max(600_000).default(0),
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(0).max(600_000).default(10_000),
  HTTP_HEADERS_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(10_000),
  HTTP_REQUEST_TIMEOUT_MS: z.coerce.number().int().min(100).max(3_600_000).default(120_000),
  HTTP_MAX_CONNECTIONS_PER_ADDRESS: z.coerce.number().int().min(0).default(256),
  HTTP_KEEP_ALIVE_TIMEOUT_MS: z.coerce.number().int().min(0).max(3_600_000).default(65_000),
  HTTP_READS_IN_FLIGHT: z.coerce.number().int().min(0).max(100_000).optional(),
  TRUST_PROXY: trustProxyValue.default(() => ({ kind: 'none' as const })),
});

function httpSettings(cleaned: Record<string, string | undefined>, databasePoolSize: number): HttpSettings {
  const parsed = httpEnvSchema.safeParse(cleaned);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ConfigError(`invalid environment variable ${String(issue.path[0])}: ${issue.message}`);
  }
  const env = parsed.data;
  return {
    corsOrigins: env.CORS_ORIGINS.trim() === '*' ? '*' : env.CORS_ORIGINS.split(',').map((entry) => entry.trim().replace(/\/$/, '').toLowerCase()),
    corsMaxAgeSeconds: env.CORS_MAX_AGE_SECONDS,
    trustProxy: env.TRUST_PROXY,
    shutdownDelayMs: env.SHUTDOWN_DELAY_MS,
    shutdownTimeoutMs: env.SHUTDOWN_TIMEOUT_MS,
    headersTimeoutMs: env.HTTP_HEADERS_TIMEOUT_MS,
    // Node requires it to be at least the headers' timeout.
    requestTimeoutMs: Math.max(env.HTTP_REQUEST_TIMEOUT_MS, env.HTTP_HEADERS_TIMEOUT_MS),
    maxConnectionsPerAddress: env.HTTP_MAX_CONNECTIONS_PER_ADDRESS,
    keepAliveTimeoutMs: env.HTTP_KEEP_ALIVE_TIMEOUT_MS,
    // Twice the connections reads may hold on PostgreSQL (they would wait for one anyway), four on
    // the embedded database's one connection.
    readsInFlight: env.HTTP_READS_IN_FLIGHT ?? (cleaned.DATABASE_URL ? 2 * databasePoolSize : 4),
  };
}

// ------------------------------------------------------------------------------------------------

export function loadConfig(source: Record<string, string | undefined> = process.env, overrides: Partial<Config> = {}): Config {
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = envSchema.safeParse(cleaned);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ConfigError(`invalid environment variable ${String(issue.path[0])}: ${issue.message}`);
  }
  const env = parsed.data;
  if (env.KB_CHUNK_OVERLAP >= env.KB_CHUNK_SIZE) {
    throw new ConfigError('invalid environment variable KB_CHUNK_OVERLAP: must be smaller than KB_CHUNK_SIZE');
  }
  if (!env.RUN_WORKERS && !env.REDIS_URL) {
    throw new ConfigError('invalid environment variable RUN_WORKERS: false needs REDIS_URL (without Redis, jobs run only inside the server process, so no worker would ever take them)');
  }
  const dataDir = path.resolve(overrides.dataDir ?? env.DATA_DIR);
  const databasePoolSize = env.DATABASE_POOL_SIZE ?? defaultDatabasePoolSize();
  return {
    env: env.NODE_ENV,
    port: env.PORT,
    host: env.HOST,
    dataDir,
    filesDir: path.resolve(env.FILES_DIR ?? path.join(dataDir, 'files')),
    filesS3: s3Settings(env),
    databaseUrl: env.DATABASE_URL,
    databasePoolSize,
    databaseConnectTimeoutMs: env.DATABASE_CONNECT_TIMEOUT_MS,
    redisUrl: env.REDIS_URL,
    redisPrefix: env.REDIS_PREFIX,
    redisCommandTimeoutMs: env.REDIS_COMMAND_TIMEOUT_MS,
    readyTimeoutMs: env.READY_TIMEOUT_MS,
    jwtSecret: overrides.jwtSecret ?? env.JWT_SECRET ?? embeddedJwtSecret(dataDir),
    jwtExpiresInSeconds: durationToSeconds(env.JWT_EXPIRES_IN),
    bcryptRounds: env.BCRYPT_ROUNDS,
    logLevel: env.LOG_LEVEL,
    bodyLimitBytes: env.BODY_LIMIT_BYTES,
    wsMaxPayloadBytes: env.WS_MAX_PAYLOAD_BYTES,
    wsMaxOperations: { perSocket: env.WS_MAX_OPERATIONS_PER_SOCKET, perToken: env.WS_MAX_OPERATIONS_PER_TOKEN },
    wsMaxSocketsPerAccount: env.WS_MAX_SOCKETS_PER_ACCOUNT,
    replayMaxEvents: env.REALTIME_REPLAY_MAX_EVENTS,
    presenceTtlMs: Math.max(300, durationToMs(env.PRESENCE_TTL)),
    graphql: {
      maxDepth: env.GRAPHQL_MAX_DEPTH,
      maxAliases: env.GRAPHQL_MAX_ALIASES,
      maxCost: env.GRAPHQL_MAX_COST,
      graphiql: env.GRAPHIQL ?? env.NODE_ENV !== 'production',
      // Production keeps the schema from anonymous callers unless told otherwise.
      introspection: env.GRAPHQL_INTROSPECTION ?? (env.NODE_ENV === 'production' ? 'authenticated' : 'public'),
    },
    signinThrottle: {
      maxFailures: env.SIGNIN_MAX_FAILURES,
      lockSeconds: env.SIGNIN_LOCK_SECONDS,
      maxLockSeconds: Math.max(env.SIGNIN_LOCK_SECONDS, env.SIGNIN_MAX_LOCK_SECONDS),
      addressMaxFailures: env.SIGNIN_ADDRESS_MAX_FAILURES,
      accountMaxFailures: env.SIGNIN_ACCOUNT_MAX_FAILURES,
      windowSeconds: env.SIGNIN_WINDOW_SECONDS,
    },
    rateLimit: {
      requests: env.RATE_LIMIT_REQUESTS,
      anonymousRequests: env.RATE_LIMIT_ANONYMOUS_REQUESTS,
      windowSeconds: env.RATE_LIMIT_WINDOW_SECONDS,
    },
    authCacheMs: env.AUTH_CACHE_MS,
    customTokenClockToleranceSeconds: env.CUSTOM_TOKEN_CLOCK_TOLERANCE_SECONDS,
    auditRetentionDays: env.AUDIT_RETENTION_DAYS,
    retentionSweepIntervalMs: Math.max(50, durationToMs(env.RETENTION_SWEEP_INTERVAL)),
    projectCacheMs: env.PROJECT_CACHE_MS,
    runWorkers: env.RUN_WORKERS,
    eventSweepIntervalMs: Math.max(50, durationToMs(env.EVENT_SWEEP_INTERVAL)),
    outbound: {
      allowPrivate: env.OUTBOUND_ALLOW_PRIVATE,
      allowedHosts: (env.OUTBOUND_ALLOWED_HOSTS ?? '').split(',').map((h) => h.trim().toLowerCase()).filter(Boolean),
    },
    webhooks: {
      timeoutMs: env.WEBHOOK_TIMEOUT_MS,
      retryScheduleMs: env.WEBHOOK_RETRY_SCHEDULE.split(',').map(durationToMs),
      disableAfterMs: durationToMs(env.WEBHOOK_DISABLE_AFTER),
      maxRetryAfterMs: durationToMs(env.WEBHOOK_MAX_RETRY_AFTER),
      sweepIntervalMs: Math.max(50, durationToMs(env.WEBHOOK_SWEEP_INTERVAL)),
      concurrency: env.WEBHOOK_CONCURRENCY,
      workerLockMs: env.WEBHOOK_WORKER_LOCK_MS,
    },
    timers: {
      sweepIntervalMs: Math.max(50, durationToMs(env.TIMER_SWEEP_INTERVAL)),
    },
    bots: {
      sweepIntervalMs: Math.max(50, durationToMs(env.BOT_SWEEP_INTERVAL)),
      sweepGraceMs: durationToMs(env.BOT_SWEEP_GRACE),
      sweepWindowMs: durationToMs(env.BOT_SWEEP_WINDOW),
    },
    kb: {
      chunkSize: env.KB_CHUNK_SIZE,
      chunkOverlap: env.KB_CHUNK_OVERLAP,
      fetchMaxBytes: env.KB_FETCH_MAX_BYTES,
      fetchTimeoutMs: env.KB_FETCH_TIMEOUT_MS,
      indexRetryDelayMs: durationToMs(env.KB_INDEX_RETRY_DELAY),
      inflateMaxBytes: env.KB_INFLATE_MAX_BYTES,
      archiveMaxEntries: env.KB_ARCHIVE_MAX_ENTRIES,
      extractTimeoutMs: env.KB_EXTRACT_TIMEOUT_MS,
      extractMaxMemoryMb: env.KB_EXTRACT_MAX_MEMORY_MB,
      extractWorkers: env.KB_EXTRACT_WORKERS,
      sitemapTimeoutMs: env.KB_SITEMAP_TIMEOUT_MS,
      sitemapMaxDocuments: env.KB_SITEMAP_MAX_DOCUMENTS,
      encoder: env.KB_ENCODER ?? (!env.DATABASE_URL && env.NODE_ENV !== 'test' ? 'local' : 'off'),
      ranking: env.KB_RANKING,
      denseWeight: env.KB_DENSE_WEIGHT,
      minCoverage: env.KB_MIN_COVERAGE,
      minSimilarity: env.KB_MIN_SIMILARITY,
      largeNamespace: env.KB_LARGE_NAMESPACE,
      candidateBudget: env.KB_CANDIDATE_BUDGET,
    },
    // An API key alone means the public OpenAI endpoint.
    llm: {
      baseUrl: env.LLM_BASE_URL ?? (env.LLM_API_KEY ? openAiBaseUrl : undefined),
      apiKey: env.LLM_API_KEY,
      model: env.LLM_MODEL,
      timeoutMs: env.LLM_TIMEOUT_MS,
    },
    embeddings: env.EMBEDDINGS_BASE_URL || env.EMBEDDINGS_API_KEY
      ? {
          baseUrl: env.EMBEDDINGS_BASE_URL ?? openAiBaseUrl,
          apiKey: env.EMBEDDINGS_API_KEY,
          model: env.EMBEDDINGS_MODEL,
          dimensions: env.EMBEDDINGS_DIMENSIONS,
        }
      : null,
    files: {
      maxBytes: env.FILE_MAX_BYTES,
      allowedTypes: env.FILE_ALLOWED_TYPES
        ? env.FILE_ALLOWED_TYPES.split(',').map((t) => t.trim().toLowerCase())
        : defaultAllowedFileTypes,
      maxPixels: env.FILE_MAX_PIXELS,
    },
    email: {
      smtpUrl: env.SMTP_URL,
      from: env.MAIL_FROM,
      publicUrl: (env.PUBLIC_URL ?? `http://localhost:${env.PORT}`).replace(/\/+$/, ''),
      outboxDir: path.join(dataDir, 'outbox'),
      passwordResetTtlMs: durationToMs(env.PASSWORD_RESET_TTL),
      verificationTtlMs: durationToMs(env.EMAIL_VERIFICATION_TTL),
      attempts: env.EMAIL_ATTEMPTS,
      internalSendLimit: env.EMAIL_INTERNAL_SEND_LIMIT,
      internalSendWindowSeconds: env.EMAIL_INTERNAL_SEND_WINDOW_SECONDS,
    },
    http: httpSettings(cleaned, databasePoolSize),
    ...overrides,
  };
}

// What each variable means, for people: `npm run env:example` writes .env.example from this list
// (a test fails when the file is stale) and a variable without an entry does not compile.
export interface VariableDoc {
  /** The default as a person reads it (`3000`, `unset: PGlite`). */
  default: string;
  meaning: string;
}
export const environmentVariables: Record<keyof Env | keyof z.infer<typeof httpEnvSchema>, VariableDoc> = {
  NODE_ENV: { default: "`development`", meaning: "`production` hides GraphiQL and field suggestions" },
  PORT: { default: "`3000`", meaning: "HTTP port (GraphQL, graphql-ws, REST)" },
  HOST: { default: "`0.0.0.0`", meaning: "listen address" },
  DATA_DIR: { default: "`./data`", meaning: "embedded database, generated JWT secret, files" },
  FILES_DIR: { default: "`$DATA_DIR/files`", meaning: "file store directory" },
  FILES_URL: { default: "unset: files in FILES_DIR", meaning: "object storage for files and images shared by every node: `s3://bucket` or `s3://bucket/prefix` (AWS S3, MinIO, R2); set it when running several nodes" },
  S3_ENDPOINT: { default: "unset: AWS S3", meaning: "endpoint of an S3-compatible store (`http://minio:9000`, `https://<account>.r2.cloudflarestorage.com`)" },
  S3_REGION: { default: "`us-east-1`", meaning: "region of the bucket (`auto` for R2)" },
  S3_ACCESS_KEY_ID: { default: "unset: the AWS credential chain", meaning: "access key of the store (set with S3_SECRET_ACCESS_KEY); unset: AWS_* variables, profiles or the instance role" },
  S3_SECRET_ACCESS_KEY: { default: "unset", meaning: "secret key of the store, with S3_ACCESS_KEY_ID" },
  S3_FORCE_PATH_STYLE: { default: "`true` with S3_ENDPOINT, else `false`", meaning: "address the bucket in the path (`host/bucket/key`) rather than the host name, as MinIO and most self-hosted stores want" },
  DATABASE_URL: { default: "unset: PGlite", meaning: "`postgres://` URL: PostgreSQL through node-postgres" },
  DATABASE_POOL_SIZE: { default: "twice the cores, at least 4", meaning: "PostgreSQL connections per node (plus half as many, 3 at least, for the hot statements); a quarter of each is kept for requests that write" },
  DATABASE_CONNECT_TIMEOUT_MS: { default: "5000", meaning: "longest a request not yet begun waits for a PostgreSQL connection; past it the request answers 503 with Retry-After, nothing written (a begun request waits its turn)" },
  REDIS_URL: { default: "unset: in-process", meaning: "`redis://` URL: Redis pub/sub events and BullMQ jobs" },
  REDIS_PREFIX: { default: "`sp`", meaning: "prefix of every Redis key and channel" },
  REDIS_COMMAND_TIMEOUT_MS: { default: "`1000`", meaning: "longest an event publish or job enqueue made after a commit waits for Redis before it is held in the process and made later (50 to 60000)" },
  READY_TIMEOUT_MS: { default: "`1000`", meaning: "`/ready` answers 503 when the database or Redis does not answer within this long (50 to 60000)" },
  JWT_SECRET: { default: "generated, kept in `$DATA_DIR/jwt-secret`", meaning: "signing secret (32+ characters); set it when running several nodes" },
  CUSTOM_TOKEN_CLOCK_TOLERANCE_SECONDS: { default: "30", meaning: "leeway on a custom token's `nbf` and `exp`, for sites whose clocks drift" },
  JWT_EXPIRES_IN: { default: "`7d`", meaning: "token lifetime (`3600`, `30m`, `12h`, `7d`), anonymous tokens too" },
  BCRYPT_ROUNDS: { default: "`10`", meaning: "password hashing cost" },
  LOG_LEVEL: { default: "`info`", meaning: "pino level" },
  BODY_LIMIT_BYTES: { default: "`1048576`", meaning: "largest JSON body (413 above)" },
  WS_MAX_PAYLOAD_BYTES: { default: "`65536`", meaning: "largest websocket frame" },
  WS_MAX_OPERATIONS_PER_SOCKET: { default: "`100`", meaning: "operations (subscriptions, and queries or mutations still running) open at once on one websocket; more are refused with `TOO_MANY_REQUESTS`" },
  WS_MAX_OPERATIONS_PER_TOKEN: { default: "`500`", meaning: "operations open at once over all the websockets of one token on one node; more are refused likewise" },
  WS_MAX_SOCKETS_PER_ACCOUNT: { default: "`32`", meaning: "websockets one account holds open at once on one node (every token of it; sockets without a token: per client address); one more is closed with 4429 and a reason" },
  REALTIME_REPLAY_MAX_EVENTS: { default: "`10000`", meaning: "how far back (in events of the project) a subscription may resume with `after`" },
  PRESENCE_TTL: { default: "`30s`", meaning: "how long a teammate stays online without a heartbeat from a live connection (Redis key TTL)" },
  GRAPHQL_MAX_DEPTH: { default: "`15`", meaning: "deepest data query (each field, inline fragment and fragment spread is a level; introspection does not count)" },
  GRAPHQL_MAX_ALIASES: { default: "`30`", meaning: "most aliases in one query (graphql-armor)" },
  GRAPHQL_MAX_COST: { default: "`5000`", meaning: "highest cost of one data query" },
  SIGNIN_MAX_FAILURES: { default: "`5`", meaning: "failed credential checks in a row for one account from one address before that pair waits" },
  SIGNIN_LOCK_SECONDS: { default: "`60`", meaning: "the first wait after SIGNIN_MAX_FAILURES, doubled at each further failure" },
  SIGNIN_MAX_LOCK_SECONDS: { default: "`3600`", meaning: "the longest wait the doubling reaches" },
  SIGNIN_ADDRESS_MAX_FAILURES: { default: "`100`", meaning: "failures from one address, over all accounts, per window" },
  SIGNIN_ACCOUNT_MAX_FAILURES: { default: "`50`", meaning: "failures of one account, from all addresses, per window" },
  SIGNIN_WINDOW_SECONDS: { default: "`86400`", meaning: "how long failures are counted (at most 20 days, as are the lock times)" },
  RATE_LIMIT_REQUESTS: { default: "`600`", meaning: "requests per window for each account: every token of it, its API calls, websocket connections and operations together" },
  RATE_LIMIT_ANONYMOUS_REQUESTS: { default: "`1200`", meaning: "requests per window for each client address, for calls without a verified credential" },
  RATE_LIMIT_WINDOW_SECONDS: { default: "`60`", meaning: "the rate-limit window" },
  AUTH_CACHE_MS: { default: "`5000`", meaning: "reuse of account, token and membership lookups; changes invalidate them at once on every node" },
  AUDIT_RETENTION_DAYS: { default: "365", meaning: "audit entries older than this many days are removed by a background sweep" },
  RETENTION_SWEEP_INTERVAL: { default: "1h", meaning: "how often the retention sweeps (audit log, projects' `retention_days`) run" },
  PROJECT_CACHE_MS: { default: "`5000`", meaning: "reuse of project records (settings, operating hours, widget); changes invalidate them at once on every node" },
  RUN_WORKERS: { default: "`true`", meaning: "run job workers inside the server process" },
  EVENT_SWEEP_INTERVAL: { default: "`2s`", meaning: "how often the consumers of the event log (webhooks, bots, e-mail) look for events past their cursors" },
  TIMER_SWEEP_INTERVAL: { default: "1s", meaning: "how often the workers look for due timers (scheduled messages)" },
  OUTBOUND_ALLOW_PRIVATE: { default: "`false`", meaning: "allow private and loopback targets for webhooks and knowledge-base fetches" },
  OUTBOUND_ALLOWED_HOSTS: { default: "none", meaning: "comma list of hosts exempt from the address check" },
  WEBHOOK_TIMEOUT_MS: { default: "`10000`", meaning: "longest wait for a webhook target, per attempt" },
  WEBHOOK_RETRY_SCHEDULE: { default: "`5s,30s,2m,10m,30m,1h,2h,4h,8h,12h,12h`", meaning: "delays between a failing delivery's attempts" },
  WEBHOOK_DISABLE_AFTER: { default: "`3d`", meaning: "failing period before a subscription is disabled" },
  WEBHOOK_MAX_RETRY_AFTER: { default: "`1h`", meaning: "the longest a target's `Retry-After` may delay the next attempt" },
  WEBHOOK_SWEEP_INTERVAL: { default: "`10s`", meaning: "how often overdue deliveries (their job lost) are looked for" },
  WEBHOOK_CONCURRENCY: { default: "`64`", meaning: "first attempts in flight per worker process, and as many retries" },
  WEBHOOK_WORKER_LOCK_MS: { default: "`30000`", meaning: "after this a crashed worker's delivery is taken over" },
  BOT_SWEEP_INTERVAL: { default: "`10s`", meaning: "how often the bot sweep looks for visitor messages a bot has not answered" },
  BOT_SWEEP_GRACE: { default: "`30s`", meaning: "a message younger than this is left to the turn that may still be under way" },
  BOT_SWEEP_WINDOW: { default: "`1h`", meaning: "a message older than this is not answered by the sweep" },
  FILE_MAX_BYTES: { default: "10 MB", meaning: "largest upload" },
  FILE_MAX_PIXELS: { default: "50000000", meaning: "largest image (width \u00d7 height) decoded for a thumbnail" },
  FILE_ALLOWED_TYPES: { default: "images, pdf, text, csv, markdown, json, rtf, Office/OOXML/ODF, zip, `audio/*`, `video/*`", meaning: "comma list of media types (`type/*` allowed)" },
  KB_CHUNK_SIZE: { default: "`1000`", meaning: "characters in a knowledge-base chunk" },
  KB_CHUNK_OVERLAP: { default: "`200`", meaning: "characters shared by neighbouring chunks (less than KB_CHUNK_SIZE)" },
  KB_FETCH_MAX_BYTES: { default: "10 MiB", meaning: "largest fetched or uploaded document" },
  KB_FETCH_TIMEOUT_MS: { default: "`15000`", meaning: "per document: name resolution, connection, redirects and body" },
  KB_INDEX_RETRY_DELAY: { default: "`1s`", meaning: "before a failed indexing is tried again, doubled at each retry (3 attempts in all)" },
  KB_INFLATE_MAX_BYTES: { default: "50 MiB", meaning: "everything decompressed from one document (DOCX parts, PDF streams, content encodings)" },
  KB_ARCHIVE_MAX_ENTRIES: { default: "`10000`", meaning: "entries a DOCX may have" },
  KB_EXTRACT_TIMEOUT_MS: { default: "`60000`", meaning: "time to parse one HTML, PDF or DOCX document in its reader process" },
  KB_EXTRACT_MAX_MEMORY_MB: { default: "`1024`", meaning: "heap of each extraction reader process (at least 128)" },
  KB_EXTRACT_WORKERS: { default: "`2`", meaning: "documents parsed at once" },
  KB_SITEMAP_TIMEOUT_MS: { default: "`30000`", meaning: "deadline of a whole `POST /kb/sitemap` call" },
  KB_SITEMAP_MAX_DOCUMENTS: { default: "`50`", meaning: "sitemap documents one call fetches" },
  KB_ENCODER: { default: "`local` in embedded mode outside tests, else `off`", meaning: "the built-in sentence encoder: `local` or `off`" },
  KB_RANKING: { default: "`fusion`", meaning: "ranking when vectors exist: `fusion` (score fusion), `rrf` (reciprocal rank fusion) or `lexical`" },
  KB_DENSE_WEIGHT: { default: "`0.3`", meaning: "weight of the vector score in `fusion` ranking (the lexical score has the rest)" },
  KB_MIN_COVERAGE: { default: "`0.3` (unknown words count twice)", meaning: "abstention floor: share of the question's meaningful words the best chunk must hold" },
  KB_MIN_SIMILARITY: { default: "`0.4` / `0.55` / `0.65` by familiarity (local encoder), `0.2` (endpoint)", meaning: "abstention floor: vector similarity the best chunk must reach, for every question; unset, the local encoder's floor is 0.4 for a question at least half of whose meaningful words the knowledge base uses, otherwise 0.55 on a content's own chunk and 0.65 on one found only through a learned phrasing" },
  KB_LARGE_NAMESPACE: { default: "`20000`", meaning: "chunks from which a knowledge base counts as large (document frequencies kept in the process, candidates from a question's rarest stems)" },
  KB_CANDIDATE_BUDGET: { default: "`1000`", meaning: "chunks the candidates of a large knowledge base may number (or 1% of it)" },
  LLM_BASE_URL: { default: "unset: extractive answers; the OpenAI endpoint with LLM_API_KEY alone", meaning: "OpenAI-compatible chat endpoint for knowledge-base answers" },
  LLM_API_KEY: { default: "unset", meaning: "API key of the chat endpoint" },
  LLM_MODEL: { default: "`gpt-4o-mini`", meaning: "chat model" },
  LLM_TIMEOUT_MS: { default: "`60000`", meaning: "longest wait for the chat endpoint" },
  EMBEDDINGS_BASE_URL: { default: "unset: the local encoder", meaning: "OpenAI-compatible embeddings endpoint; replaces the local encoder" },
  EMBEDDINGS_API_KEY: { default: "unset", meaning: "API key of the embeddings endpoint" },
  EMBEDDINGS_MODEL: { default: "`text-embedding-3-small`", meaning: "embeddings model" },
  EMBEDDINGS_DIMENSIONS: { default: "unset: the model's own", meaning: "dimensions asked of the embeddings model" },
  GRAPHIQL: { default: "on outside production", meaning: "force GraphiQL on or off" },
  GRAPHQL_INTROSPECTION: { default: "`public`; `authenticated` in production", meaning: "who may introspect the schema: `public`, `authenticated` or `off`" },
  SMTP_URL: { default: "unset: `.eml` files in `$DATA_DIR/outbox`", meaning: "`smtp://user:pass@host:587` or `smtps://\u2026`: send e-mail through this server" },
  MAIL_FROM: { default: "`Support platform <no-reply@localhost>`", meaning: "sender of every e-mail" },
  PUBLIC_URL: { default: "`http://localhost:$PORT`", meaning: "address that links in e-mails start with (the load balancer's, in a cluster)" },
  PASSWORD_RESET_TTL: { default: "`1h`", meaning: "lifetime of a password-reset link" },
  EMAIL_VERIFICATION_TTL: { default: "`2d`", meaning: "lifetime of an e-mail verification link" },
  EMAIL_ATTEMPTS: { default: "`6`", meaning: "tries of an e-mail on temporary failures, with backoff" },
  EMAIL_INTERNAL_SEND_LIMIT: { default: "`100`", meaning: "internal e-mails a project may send per window (429 beyond)" },
  EMAIL_INTERNAL_SEND_WINDOW_SECONDS: { default: "`3600`", meaning: "the internal e-mail window" },
  CORS_ORIGINS: { default: "`*`", meaning: "origins allowed to call the API from a browser (comma list); `*` never allows browser credentials" },
  CORS_MAX_AGE_SECONDS: { default: "`600`", meaning: "how long browsers cache a preflight" },
  SHUTDOWN_DELAY_MS: { default: "`0`", meaning: "how long a stopping node keeps serving after `/ready` turns 503" },
  SHUTDOWN_TIMEOUT_MS: { default: "`10000`", meaning: "deadline for requests in flight once the node stops accepting" },
  HTTP_HEADERS_TIMEOUT_MS: { default: "`10000`", meaning: "a request's headers must arrive within this long, or its connection is closed with 408 (slow clients, slowloris)" },
  HTTP_REQUEST_TIMEOUT_MS: { default: "`120000`", meaning: "a whole request, body included, must arrive within this long, or its connection is closed with 408 (uploads over slow links need it long enough)" },
  HTTP_READS_IN_FLIGHT: { default: "twice `DATABASE_POOL_SIZE` on PostgreSQL, 4 embedded", meaning: "API reads (GET, HEAD of /v3 and /graphql) a node answers at once; more wait their turn, first come first served, and writes never wait for them, so a post is not queued behind a console full of readers. `0`: no limit" },
  HTTP_KEEP_ALIVE_TIMEOUT_MS: { default: "`65000`", meaning: "how long an idle keep-alive connection is kept open; above the clients' and load balancers' own (often 60 s), so that they close first and never reuse a connection the node is closing (which resets the request sent on it)" },
  HTTP_MAX_CONNECTIONS_PER_ADDRESS: { default: "`256`", meaning: "HTTP connections one client address may hold open at once (websockets are counted per account instead: `WS_MAX_SOCKETS_PER_ACCOUNT`), and websockets it may hold awaiting their `connection_init`. At the cap the address's oldest idle keep-alive connection is closed to make room; when none is idle, the new connection's request is answered 503 with `Retry-After` and the connection closed. `0`: no cap, for a node behind a reverse proxy, where every connection comes from the proxy (set the proxy's own limits)" },
  TRUST_PROXY: { default: "off", meaning: "whose `X-Forwarded-For` names the client (throttles, rate limits, geo lookup): `false`, `true`, a number of hops, or proxy addresses and ranges (see Client addresses behind proxies)" },
};
