import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite/vector';
import { inject } from 'vitest';
import { productionMode } from './environment.js';

/**
 * A new DATA_DIR for a server run in its own process. In embedded mode its database is already
 * there, loaded from the image the global setup migrated (templates.ts), where the server keeps it
 * (`<DATA_DIR>/db`): the process opens it as an existing database and finds no migration to apply,
 * instead of running initdb and every migration (a couple of seconds a start).
 */
export async function serviceDataDir(prefix = 'sp-node-'): Promise<string> {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  if (!productionMode) await loadEmbeddedImage(path.join(dir, 'db'));
  return dir;
}

/**
 * The migrated embedded image (about 40 MB), read once per worker: the files a worker runs share
 * its module state (isolate: false), this copy included.
 */
export function embeddedImage(): Blob {
  const worker = globalThis as { embeddedImage?: Blob };
  worker.embeddedImage ??= new Blob([readFileSync(inject('embeddedImage'))]);
  return worker.embeddedImage;
}

/** An embedded database as initdb leaves it (no migration applied), in memory. */
export function emptyEmbeddedDatabase(): Promise<PGlite> {
  return PGlite.create({ extensions: { vector }, loadDataDir: new Blob([readFileSync(inject('emptyEmbeddedImage'))]) });
}

/** Writes the migrated embedded image to `dbDir`, as a data directory a server opens. */
export async function loadEmbeddedImage(dbDir: string) {
  const pglite = await PGlite.create({ dataDir: dbDir, extensions: { vector }, loadDataDir: embeddedImage() });
  await pglite.close();
}
