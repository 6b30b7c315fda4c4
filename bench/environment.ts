import { loadConfig, type Config } from '../src/config.js';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { randomBytes } from 'node:crypto';
import { nodeProcessEnv } from '../test/helpers/script-process.js';

export const benchDatabaseAdmin = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
export const benchRedisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

/**
 * Benches load one token (and one address) far past any client's rate limit: the limiter runs,
 * and never refuses. Likewise thousands of sockets from 127.0.0.1, most of them one agent's token.
 */
const benchLimits = {
  RATE_LIMIT_REQUESTS: '1000000000',
  RATE_LIMIT_ANONYMOUS_REQUESTS: '1000000000',
  HTTP_MAX_CONNECTIONS_PER_ADDRESS: '0',
  WS_MAX_OPERATIONS_PER_TOKEN: '1000000',
};

/** A benchmark's config: its own data directory, silent, fast password hashing, any port on 127.0.0.1; embedded unless the overrides say otherwise. */
export function benchConfig(overrides: Record<string, string> = {}): Config {
  return loadConfig({
    NODE_ENV: 'production',
    LOG_LEVEL: 'silent',
    DATA_DIR: mkdtempSync(path.join(tmpdir(), 'sp-bench-')),
    JWT_SECRET: 'bench-secret-bench-secret-bench-secret-01',
    BCRYPT_ROUNDS: '4',
    PORT: '0',
    HOST: '127.0.0.1',
    ...benchLimits,
    ...overrides,
  });
}

/** The environment of a bench's server node in its own process (bench/socket-node.ts) on `config`. */
export function benchNodeEnv(config: Config, extra: Record<string, string> = {}) {
  return nodeProcessEnv(config, { NODE_ENV: 'production', ...benchLimits, ...extra });
}

/** A fresh PostgreSQL database and Redis prefix for one benchmark (production mode). */
export async function productionConfig(overrides: Record<string, string> = {}): Promise<{ config: Config; databaseUrl: string; drop(): Promise<void> }> {
  const name = `sp_bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: benchDatabaseAdmin });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  const url = new URL(benchDatabaseAdmin);
  url.pathname = `/${name}`;
  const databaseUrl = url.toString();
  const config = benchConfig({
    NODE_ENV: 'production',
    DATABASE_URL: databaseUrl,
    REDIS_URL: benchRedisUrl,
    REDIS_PREFIX: `spbench_${randomBytes(3).toString('hex')}`,
    ...overrides,
  });
  return {
    config,
    databaseUrl,
    async drop() {
      const c = new pg.Client({ connectionString: benchDatabaseAdmin });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await c.end();
    },
  };
}
