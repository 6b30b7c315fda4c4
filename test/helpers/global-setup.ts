import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { generateClientIfStale } from '../../prisma/generate.js';
import { sharedDatabasePrefix } from './environment.js';
import { embeddedTemplate, emptyEmbeddedTemplate, migrationsDigest, postgresTemplate } from './templates.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A migrated embedded database image (tar) each test app loads. */
    embeddedImage: string;
    /** An embedded database image as initdb leaves it, for the tests of migrations. */
    emptyEmbeddedImage: string;
    /** Production mode: a migrated database each test database is copied from. */
    postgresTemplate: string | undefined;
    /** This run's id: names what the run's workers leave for the teardown to remove. */
    runId: string;
  }
}

export default async function setup(project: TestProject) {
  // The generated Prisma client must match prisma/schema.prisma before any test imports it.
  generateClientIfStale();
  // Migrated once here, copied by every test app (see templates.ts).
  const digest = migrationsDigest();
  project.provide('embeddedImage', await embeddedTemplate(digest));
  project.provide('emptyEmbeddedImage', await emptyEmbeddedTemplate());
  project.provide('postgresTemplate', process.env.DATABASE_URL ? await postgresTemplate(process.env.DATABASE_URL, digest) : undefined);
  const runId = randomBytes(4).toString('hex');
  project.provide('runId', runId);
  // The shared apps (app.ts) live as long as their worker: their databases go when the run ends.
  return async () => {
    if (!process.env.DATABASE_URL) return;
    const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await admin.connect();
    try {
      const { rows } = await admin.query<{ datname: string }>('SELECT datname FROM pg_database WHERE datname LIKE $1', [`${sharedDatabasePrefix(runId)}%`]);
      for (const { datname } of rows) await admin.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
    } finally {
      await admin.end();
    }
  };
}
