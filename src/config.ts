import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

// The only reader of process.env. A bad value stops the start with a message naming the variable.

const bool = z
  .enum(['true', 'false', '1', '0'])
  .transform((v) => v === 'true' || v === '1');

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  DATA_DIR: z.string().default('./data'),
  FILES_DIR: z.string().optional(),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
    .optional(),
  REDIS_URL: z.string().regex(/^rediss?:\/\//, 'must be a redis:// or rediss:// URL').optional(),
  REDIS_PREFIX: z.string().default('sp'),
  JWT_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  JWT_EXPIRES_IN: z.string().regex(/^\d+[smhd]?$/, 'must be a duration such as 3600, 30m, 12h or 7d').default('7d'),
  BCRYPT_ROUNDS: z.coerce.number().int().min(4).max(15).default(10),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  BODY_LIMIT_BYTES: z.coerce.number().int().positive().default(1024 * 1024),
  WS_MAX_PAYLOAD_BYTES: z.coerce.number().int().positive().default(64 * 1024),
  GRAPHQL_MAX_DEPTH: z.coerce.number().int().positive().default(10),
  GRAPHQL_MAX_ALIASES: z.coerce.number().int().positive().default(30),
  GRAPHQL_MAX_COST: z.coerce.number().int().positive().default(5000),
  SIGNIN_MAX_FAILURES: z.coerce.number().int().positive().default(5),
  SIGNIN_WINDOW_SECONDS: z.coerce.number().int().positive().default(900),
  RUN_WORKERS: bool.default(true),
  GRAPHIQL: bool.optional(),
});

export type Env = z.infer<typeof envSchema>;

export interface Config {
  env: Env['NODE_ENV'];
  port: number;
  host: string;
  dataDir: string;
  filesDir: string;
  databaseUrl?: string;
  redisUrl?: string;
  redisPrefix: string;
  jwtSecret: string;
  jwtExpiresInSeconds: number;
  bcryptRounds: number;
  logLevel: Env['LOG_LEVEL'];
  bodyLimitBytes: number;
  wsMaxPayloadBytes: number;
  graphql: { maxDepth: number; maxAliases: number; maxCost: number; graphiql: boolean };
  signinThrottle: { maxFailures: number; windowSeconds: number };
  runWorkers: boolean;
}

export class ConfigError extends Error {}

export function durationToSeconds(value: string): number {
  const match = /^(\d+)([smhd]?)$/.exec(value);
  if (!match) throw new ConfigError(`invalid duration ${value}`);
  const unit = { '': 1, s: 1, m: 60, h: 3600, d: 86400 }[match[2] as '' | 's' | 'm' | 'h' | 'd'];
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

export function loadConfig(source: Record<string, string | undefined> = process.env, overrides: Partial<Config> = {}): Config {
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = envSchema.safeParse(cleaned);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ConfigError(`invalid environment variable ${String(issue.path[0])}: ${issue.message}`);
  }
  const env = parsed.data;
  const dataDir = path.resolve(overrides.dataDir ?? env.DATA_DIR);
  return {
    env: env.NODE_ENV,
    port: env.PORT,
    host: env.HOST,
    dataDir,
    filesDir: path.resolve(env.FILES_DIR ?? path.join(dataDir, 'files')),
    databaseUrl: env.DATABASE_URL,
    redisUrl: env.REDIS_URL,
    redisPrefix: env.REDIS_PREFIX,
    jwtSecret: overrides.jwtSecret ?? env.JWT_SECRET ?? embeddedJwtSecret(dataDir),
    jwtExpiresInSeconds: durationToSeconds(env.JWT_EXPIRES_IN),
    bcryptRounds: env.BCRYPT_ROUNDS,
    logLevel: env.LOG_LEVEL,
    bodyLimitBytes: env.BODY_LIMIT_BYTES,
    wsMaxPayloadBytes: env.WS_MAX_PAYLOAD_BYTES,
    graphql: {
      maxDepth: env.GRAPHQL_MAX_DEPTH,
      maxAliases: env.GRAPHQL_MAX_ALIASES,
      maxCost: env.GRAPHQL_MAX_COST,
      graphiql: env.GRAPHIQL ?? env.NODE_ENV !== 'production',
    },
    signinThrottle: { maxFailures: env.SIGNIN_MAX_FAILURES, windowSeconds: env.SIGNIN_WINDOW_SECONDS },
    runWorkers: env.RUN_WORKERS,
    ...overrides,
  };
}
