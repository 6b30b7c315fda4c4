import { readFile, readdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  bindMigrationAwareSqlAdapterFactory,
  type SqlMigrationAwareDriverAdapterFactory,
} from '@prisma/driver-adapter-utils';

// Migrations run through Prisma's WebAssembly schema engine: the CLI's native
// engine cannot be downloaded in our environments, the Wasm one ships on npm.

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const schemaPath = path.join(root, 'prisma/schema.prisma');
export const migrationsDir = path.join(root, 'prisma/migrations');

type Engine = {
  applyMigrations(input: unknown): Promise<{ appliedMigrationNames: string[] }>;
  diff(input: unknown): Promise<{ exitCode: number; stdout: string | null }>;
  free(): void;
};

let wasmModule: Promise<{ SchemaEngine: { new: (...args: unknown[]) => Promise<Engine> } }> | undefined;

function loadWasm() {
  wasmModule ??= (async () => {
    const require = createRequire(import.meta.url);
    const bgPath = require.resolve('@prisma/schema-engine-wasm/schema_engine_bg');
    const bg = await import('@prisma/schema-engine-wasm/schema_engine_bg');
    const bytes = await readFile(path.join(path.dirname(bgPath), 'schema_engine_bg.wasm'));
    const { instance } = await WebAssembly.instantiate(bytes, { './schema_engine_bg.js': bg as never });
    const exports = instance.exports as Record<string, unknown> & { __wbindgen_start: () => void };
    (bg as unknown as { __wbg_set_wasm: (w: unknown) => void }).__wbg_set_wasm(exports);
    exports.__wbindgen_start();
    return bg as never;
  })();
  return wasmModule;
}

async function openEngine(adapterFactory: SqlMigrationAwareDriverAdapterFactory): Promise<Engine> {
  const { SchemaEngine } = await loadWasm();
  const datamodel = await readFile(schemaPath, 'utf8');
  const log = () => {};
  return SchemaEngine.new(
    { datamodels: [[schemaPath, datamodel]] },
    log,
    bindMigrationAwareSqlAdapterFactory(adapterFactory),
  );
}

async function migrationList() {
  const entries = (await readdir(migrationsDir, { withFileTypes: true }))
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
  const migrationDirectories = await Promise.all(
    entries.map(async (name) => ({
      path: name,
      migrationFile: {
        path: 'migration.sql',
        content: { tag: 'ok', value: await readFile(path.join(migrationsDir, name, 'migration.sql'), 'utf8') },
      },
    })),
  );
  let lock: string | null = null;
  try {
    lock = await readFile(path.join(migrationsDir, 'migration_lock.toml'), 'utf8');
  } catch {
    lock = null;
  }
  return {
    baseDir: migrationsDir,
    lockfile: { path: 'migration_lock.toml', content: lock },
    shadowDbInitScript: '',
    migrationDirectories,
  };
}

const noFilters = { externalTables: [], externalEnums: [] };

export class MigrationError extends Error {}

/** Applies every migration under prisma/migrations that the database has not seen. */
export async function applyMigrations(adapterFactory: SqlMigrationAwareDriverAdapterFactory): Promise<string[]> {
  let engine: Engine | undefined;
  try {
    engine = await openEngine(adapterFactory);
    const result = await engine.applyMigrations({ migrationsList: await migrationList(), filters: noFilters });
    return result.appliedMigrationNames;
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    throw new MigrationError(`database migration failed: ${detail}`);
  } finally {
    engine?.free();
  }
}

/** The SQL that takes the migrations folder to the current schema.prisma (empty when up to date). */
export async function pendingSchemaDiff(adapterFactory: SqlMigrationAwareDriverAdapterFactory): Promise<string> {
  const engine = await openEngine(adapterFactory);
  try {
    const datamodel = await readFile(schemaPath, 'utf8');
    const result = await engine.diff({
      from: { tag: 'migrations', ...(await migrationList()) },
      to: { tag: 'schemaDatamodel', files: [{ path: schemaPath, content: datamodel }] },
      script: true,
      exitCode: null,
      filters: noFilters,
    });
    return result.stdout ?? '';
  } finally {
    engine.free();
  }
}
