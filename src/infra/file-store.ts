import { createReadStream } from 'node:fs';
import { mkdir, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { AppError, badInput } from '../errors.js';

// Files live in one directory; a stored path is always relative to it and can never escape it.

export class FileStore {
  constructor(readonly root: string) {}

  async init() {
    await mkdir(this.root, { recursive: true });
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
    try {
      await mkdir(path.dirname(full), { recursive: true });
      await this.writeBytes(full, bytes);
      this.fullSince = undefined;
    } catch (error) {
      await rm(full, { force: true }).catch(() => {});
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
