import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite/vector';
import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { PrismaPGlite } from 'pglite-prisma-adapter';
import { applyMigrations, migrationsDir } from '../../src/infra/migrate.js';

// Migrated once per run, copied by every test app: initdb and the migrations cost several seconds
// an app, loading an image (embedded) or copying a template database (PostgreSQL) a fraction of it.
// Both are named by a digest of prisma/migrations, so a new migration makes a new one, and kept
// between runs; an app still applies the migrations after copying (a no-op when up to date).

/** Digest of every migration's name and SQL, plus the embedded engine's version. */
export function migrationsDigest() {
  const hash = createHash('sha256');
  const names = readdirSync(migrationsDir, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
  for (const name of names) hash.update(name).update('\0').update(readFileSync(path.join(migrationsDir, name, 'migration.sql'))).update('\0');
  hash.update(pgliteVersion());
  return hash.digest('hex').slice(0, 16);
}

const templatesDir = path.join(tmpdir(), 'support-platform-test-templates');

/** The path of a migrated embedded database image, made when missing. */
export function embeddedTemplate(digest: string): Promise<string> {
  return embeddedImageFile(`embedded-${digest}.tar`, async (pglite) => {
    await applyMigrations(new PrismaPGlite(pglite));
    // openDatabase enables it at each start; in the image, that start does nothing.
    await pglite.exec('CREATE EXTENSION IF NOT EXISTS vector');
  });
}

/**
 * The path of an image of an embedded database as initdb leaves it, made when missing: for the
 * tests of migrations themselves, which load it instead of running initdb (about 2 s) each time.
 */
export function emptyEmbeddedTemplate(): Promise<string> {
  return embeddedImageFile(`empty-${pgliteVersion()}.tar`, async () => {});
}

function pgliteVersion(): string {
  return JSON.parse(readFileSync(new URL('../../node_modules/@electric-sql/pglite/package.json', import.meta.url), 'utf8')).version;
}

async function embeddedImageFile(name: string, prepare: (pglite: PGlite) => Promise<void>): Promise<string> {
  const file = path.join(templatesDir, name);
  if (existsSync(file)) return file;
  mkdirSync(templatesDir, { recursive: true });
  const pglite = await PGlite.create({ extensions: { vector } });
  try {
    await prepare(pglite);
    const image = await pglite.dumpDataDir('none');
    // Written aside and renamed: a concurrent run reads a whole image or none.
    const partial = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
    writeFileSync(partial, Buffer.from(await image.arrayBuffer()));
    renameSync(partial, file);
  } finally {
    await pglite.close();
  }
  return file;
}

function withDatabase(url: string, name: string) {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

/** The name of a migrated PostgreSQL template database on `adminUrl`'s server, made when missing. */
export async function postgresTemplate(adminUrl: string, digest: string): Promise<string> {
  const name = `sp_template_${digest}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    const found = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (found.rowCount) return name;
    // Built under a name of its own and renamed when complete: concurrent runs never copy a half
    // migrated template, and the loser of a race drops its copy.
    const building = `${name}_${process.pid}_${randomBytes(3).toString('hex')}`;
    await admin.query(`CREATE DATABASE "${building}"`);
    const pool = new pg.Pool({ connectionString: withDatabase(adminUrl, building), max: 2 });
    try {
      await applyMigrations(new PrismaPg(pool));
      await pool.query('CREATE EXTENSION IF NOT EXISTS vector').catch(() => undefined);
    } finally {
      await pool.end();
    }
    try {
      await admin.query(`ALTER DATABASE "${building}" RENAME TO "${name}"`);
    } catch (error) {
      await admin.query(`DROP DATABASE IF EXISTS "${building}" WITH (FORCE)`);
      const raced = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
      if (!raced.rowCount) throw error;
    }
    return name;
  } finally {
    await admin.end();
  }
}
