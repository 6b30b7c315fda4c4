import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';

// Production-mode runs (DATABASE_URL and REDIS_URL set) give each test app its own
// PostgreSQL database and Redis key prefix; embedded runs use in-memory PGlite.

export const productionMode = !!process.env.DATABASE_URL;
export const redisUrl = process.env.REDIS_URL;

export function uniqueName(prefix: string) {
  return `${prefix}_${process.pid}_${randomBytes(4).toString('hex')}`;
}

function withDatabase(url: string, name: string) {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

export async function createTestDatabase(name = uniqueName('sp_test')): Promise<{ url: string; drop(): Promise<void> }> {
  const admin = process.env.DATABASE_URL!;
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  // A copy of the migrated template (see templates.ts): the app's migrations then find nothing to do.
  const template = inject('postgresTemplate');
  await client.query(`CREATE DATABASE "${name}"${template ? ` TEMPLATE "${template}"` : ''}`);
  await client.end();
  return {
    url: withDatabase(admin, name),
    async drop() {
      const c = new pg.Client({ connectionString: admin });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await c.end();
    },
  };
}

/** The prefix of the databases of this run's shared apps (app.ts), dropped when the run ends. */
export const sharedDatabasePrefix = (runId: string) => `sp_shared_${runId}_`;
