import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
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

/**
 * Writes the migrated embedded image to `dbDir`, as a data directory a server opens: the image is
 * the data directory as a tar, so its files are written as they are (a tenth of the time PGlite
 * takes to load it, start and stop).
 */
export async function loadEmbeddedImage(dbDir: string) {
  const tar = Buffer.from(await embeddedImage().arrayBuffer());
  const field = (header: Buffer, start: number, length: number) => header.toString('latin1', start, start + length).replace(/\0.*$/s, '');
  for (let at = 0; at + 512 <= tar.length; ) {
    const header = tar.subarray(at, at + 512);
    const name = field(header, 0, 100);
    if (!name) break;
    const prefix = field(header, 257, 6).startsWith('ustar') ? field(header, 345, 155) : '';
    const relative = path.normalize(path.join(prefix, name)).replace(/^([/\\]|\.\.[/\\])+/, '');
    const size = parseInt(field(header, 124, 12).trim() || '0', 8);
    const type = field(header, 156, 1) || '0';
    const target = path.join(dbDir, relative);
    if (type === '5') mkdirSync(target, { recursive: true });
    else if (type === '0') {
      mkdirSync(path.dirname(target), { recursive: true });
      writeFileSync(target, tar.subarray(at + 512, at + 512 + size));
    } else throw new Error(`unexpected entry type ${type} (${relative}) in the embedded image`);
    at += 512 + Math.ceil(size / 512) * 512;
  }
}
