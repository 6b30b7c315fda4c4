import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { AppError, badInput } from '../errors.js';

// Files live in one directory; a stored path is always relative to it and can never escape it.
// A file is written beside the others under `.partial/` and renamed into place once whole, so a
// process killed midway (or a full disk) never leaves a truncated file where a path points.

/** Where files are written before they are whole: no upload's path is under it, so no access rule reads it. */
const partialDir = '.partial';
/** A write older than this under `.partial/` belongs to a process that died: removed at start. */
const abandonedAfterMs = 10 * 60_000;

export class FileStore {
  constructor(readonly root: string) {}

  async init() {
    await mkdir(path.join(this.root, partialDir), { recursive: true });
    await this.removeAbandonedWrites();
  }

  /** Writes that a killed process left under `.partial/` (another node sharing the folder may be writing the recent ones). */
  private async removeAbandonedWrites() {
    const dir = path.join(this.root, partialDir);
    for (const name of await readdir(dir).catch(() => [] as string[])) {
      const full = path.join(dir, name);
      const modified = (await stat(full).catch(() => null))?.mtimeMs;
      if (modified !== undefined && Date.now() - modified > abandonedAfterMs) await rm(full, { force: true }).catch(() => {});
    }
  }

  /** Resolves a client-supplied path inside the store or refuses it. */
  resolve(relative: string): string {
    let decoded = relative;
    try {
      for (let i = 0; i < 3 && /%[0-9a-f]{2}/i.test(decoded); i++) decoded = decodeURIComponent(decoded);
    } catch {
      throw badInput('path', 'path: is not a valid encoded path');
    }
    if (!decoded || decoded.includes('\0') || path.isAbsolute(decoded) || /(^|[\\/])\.\.([\\/]|$)/.test(decoded)) {
      throw badInput('path', 'path: must be a relative path inside the file store');
    }
    const full = path.resolve(this.root, decoded);
    if (!full.startsWith(this.root + path.sep)) throw badInput('path', 'path: must be inside the file store');
    return full;
  }

  /** Set while the disk is full: since the last write that met ENOSPC, until a write succeeds. */
  private fullSince: number | undefined;

  /** Writes the bytes of a file: the one place the disk is written (a test faults it here, as a disk filling midway). */
  protected writeBytes(full: string, bytes: Uint8Array) {
    return writeFile(full, bytes);
  }

  /**
   * Writes a file whole or not at all: a write that fails (a full disk) leaves no partial file.
   * A full disk (or quota) answers 507 INSUFFICIENT_STORAGE.
   */
  async write(relative: string, bytes: Uint8Array) {
    const full = this.resolve(relative);
    const partial = path.join(this.root, partialDir, `${randomUUID()}.part`);
    try {
      await mkdir(path.dirname(full), { recursive: true });
      await this.writeBytes(partial, bytes);
      await rename(partial, full);
      this.fullSince = undefined;
    } catch (error) {
      await rm(partial, { force: true }).catch(() => {});
      if (outOfSpace(error)) {
        this.fullSince ??= Date.now();
        throw new AppError('INSUFFICIENT_STORAGE', 'file: the file store is full; nothing of this upload was kept; retry later', { field: 'file' });
      }
      throw error;
    }
  }

  /**
   * Whether files can be written (for /ready): true unless the last write met a full disk and a
   * small probe written now fails too.
   */
  async writable(): Promise<boolean> {
    if (this.fullSince === undefined) return true;
    const probe = path.join(this.root, '.ready-probe');
    try {
      await this.writeBytes(probe, new Uint8Array(4096));
      this.fullSince = undefined;
      return true;
    } catch {
      return false;
    } finally {
      await rm(probe, { force: true }).catch(() => {});
    }
  }

  async exists(relative: string) {
    try {
      return (await stat(this.resolve(relative))).isFile();
    } catch {
      return false;
    }
  }

  read(relative: string): Readable {
    return createReadStream(this.resolve(relative));
  }

  async remove(relative: string) {
    await rm(this.resolve(relative), { force: true });
  }
}

/** A write refused for want of space: a full disk (ENOSPC) or a quota reached (EDQUOT). */
const outOfSpace = (error: unknown) => ['ENOSPC', 'EDQUOT'].includes((error as NodeJS.ErrnoException)?.code ?? '');
