import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { embeddedTemplate, migrationsDigest, postgresTemplate } from './templates.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A migrated embedded database image (tar) each test app loads. */
    embeddedImage: string;
    /** Production mode: a migrated database each test database is copied from. */
    postgresTemplate: string | undefined;
  }
}

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');

/**
 * The generated Prisma client must match prisma/schema.prisma before any test imports it. It is
 * generated again only when the schema changed since the last generation made here (a few seconds
 * before any test could start otherwise; `npm test` has just generated it).
 */
function generateClient() {
  const schema = readFileSync(path.join(root, 'prisma/schema.prisma'));
  const prisma = readFileSync(path.join(root, 'node_modules/prisma/package.json'));
  const digest = createHash('sha256').update(schema).update(prisma).digest('hex');
  const stamp = path.join(root, 'node_modules/.cache/support-platform-tests/prisma-schema.sha256');
  const generated = path.join(root, 'src/generated/prisma/client.ts');
  if (existsSync(generated) && existsSync(stamp) && readFileSync(stamp, 'utf8') === digest) return;
  execFileSync('npx', ['prisma', 'generate', '--no-hints'], {
    cwd: root,
    stdio: 'ignore',
    env: { ...process.env, PRISMA_SCHEMA_ENGINE_BINARY: process.env.PRISMA_SCHEMA_ENGINE_BINARY ?? 'package.json' },
  });
  mkdirSync(path.dirname(stamp), { recursive: true });
  writeFileSync(stamp, digest);
}

export default async function setup(project: TestProject) {
  generateClient();
  // Migrated once here, copied by every test app (see templates.ts).
  const digest = migrationsDigest();
  project.provide('embeddedImage', await embeddedTemplate(digest));
  project.provide('postgresTemplate', process.env.DATABASE_URL ? await postgresTemplate(process.env.DATABASE_URL, digest) : undefined);
}
