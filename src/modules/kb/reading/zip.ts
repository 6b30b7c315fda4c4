import { ExtractionError } from './extraction-error.js';
import { inflate, InflateBudget, InflateLimitError } from './inflate.js';

// ZIP containers (DOCX) read from their central directory. The number of entries is checked before
// anything is decompressed; only the entries asked for are decompressed, all of them against one
// budget, counted as they inflate. The sizes the archive declares are never used.

/** Limits on reading one archive or compressed document. */
export interface ArchiveLimits {
  /** Bytes everything read from the document may decompress to, together. */
  maxBytes: number;
  maxEntries: number;
}

interface Entry {
  method: number;
  flags: number;
  compressedSize: number;
  localOffset: number;
}

const endOfDirectory = 0x06054b50;
const directoryEntry = 0x02014b50;
const localHeader = 0x04034b50;

function corrupt(message: string): never {
  throw new ExtractionError(`not a readable ZIP archive: ${message}`);
}

export class ZipArchive {
  private cache = new Map<string, Promise<Buffer>>();

  private constructor(
    private bytes: Buffer,
    private entries: Map<string, Entry>,
    private budget: InflateBudget,
  ) {}

  static open(bytes: Buffer, limits: ArchiveLimits): ZipArchive {
    const end = findEndOfDirectory(bytes);
    const declared = bytes.readUInt16LE(end + 10);
    const directorySize = bytes.readUInt32LE(end + 12);
    const directoryOffset = bytes.readUInt32LE(end + 16);
    if (declared === 0xffff || directorySize === 0xffffffff || directoryOffset === 0xffffffff) {
      throw new ExtractionError('ZIP64 archives are not read');
    }
    if (declared > limits.maxEntries) throw new ExtractionError(`the archive has more than ${limits.maxEntries} entries`);
    const entries = new Map<string, Entry>();
    let at = directoryOffset;
    for (let i = 0; i < declared; i++) {
      if (at + 46 > bytes.length || bytes.readUInt32LE(at) !== directoryEntry) corrupt('broken central directory');
      const flags = bytes.readUInt16LE(at + 8);
      const nameLength = bytes.readUInt16LE(at + 28);
      const next = at + 46 + nameLength + bytes.readUInt16LE(at + 30) + bytes.readUInt16LE(at + 32);
      if (next > bytes.length) corrupt('broken central directory');
      const name = bytes.toString(flags & 0x800 ? 'utf8' : 'latin1', at + 46, at + 46 + nameLength);
      if (!entries.has(name)) {
        entries.set(name, {
          flags,
          method: bytes.readUInt16LE(at + 10),
          compressedSize: bytes.readUInt32LE(at + 20),
          localOffset: bytes.readUInt32LE(at + 42),
        });
      }
      at = next;
    }
    return new ZipArchive(bytes, entries, new InflateBudget(limits.maxBytes));
  }

  has(name: string) {
    return this.entries.has(name);
  }

  /** The decompressed bytes of an entry (read once, then kept). */
  read(name: string): Promise<Buffer> {
    let read = this.cache.get(name);
    if (!read) {
      read = this.decompress(name);
      this.cache.set(name, read);
    }
    return read;
  }

  private async decompress(name: string): Promise<Buffer> {
    const entry = this.entries.get(name);
    if (!entry) throw new ExtractionError(`the archive has no entry ${name}`);
    const { bytes } = this;
    const at = entry.localOffset;
    if (at + 30 > bytes.length || bytes.readUInt32LE(at) !== localHeader) corrupt(`broken entry ${name}`);
    const start = at + 30 + bytes.readUInt16LE(at + 26) + bytes.readUInt16LE(at + 28);
    const data = bytes.subarray(start, start + entry.compressedSize);
    if (start + entry.compressedSize > bytes.length) corrupt(`truncated entry ${name}`);
    if (entry.flags & 0x1) throw new ExtractionError(`the archive entry ${name} is encrypted`);
    try {
      if (entry.method === 0) {
        this.budget.take(data.length);
        return data;
      }
      if (entry.method === 8) return await inflate(data, 'raw', this.budget);
    } catch (error) {
      if (error instanceof InflateLimitError) throw new ExtractionError(`the archive ${error.message} (stopped in ${name})`);
      corrupt(`${name}: ${(error as Error).message}`);
    }
    throw new ExtractionError(`the archive entry ${name} uses compression method ${entry.method}, which is not read`);
  }
}

function findEndOfDirectory(bytes: Buffer): number {
  // The record is 22 bytes, followed by a comment of at most 65,535 bytes.
  for (let at = bytes.length - 22; at >= 0 && at >= bytes.length - 22 - 0xffff; at--) {
    if (bytes.readUInt32LE(at) === endOfDirectory) return at;
  }
  return corrupt('no central directory');
}
