import { createReadStream } from 'node:fs';
import { mkdir, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { badInput } from '../errors.js';

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

  async write(relative: string, bytes: Uint8Array) {
    const full = this.resolve(relative);
    await mkdir(path.dirname(full), { recursive: true });
    await writeFile(full, bytes);
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
