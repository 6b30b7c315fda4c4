import type { Transform } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate, createInflateRaw } from 'node:zlib';

// Every decompression of bytes a customer supplied (archive entries, PDF streams, HTTP content
// encodings, gzipped sitemaps) goes through here. Output is counted as zlib hands it over (zlib
// runs on the thread pool, so the event loop stays free) and the stream is stopped as soon as the
// count passes the budget: a size the archive or the server declares is never trusted.

/** The decompressed output passed its budget; what was produced so far is dropped. */
export class InflateLimitError extends Error {
  constructor(readonly limit: number) {
    super(`decompresses to more than ${limit} bytes`);
  }
}

/** Bytes that all the decompressions of one document may produce together. */
export class InflateBudget {
  private used = 0;

  constructor(readonly limit: number) {}

  get spent() {
    return this.used;
  }

  /** Counts decompressed bytes; throws once the total passes the limit. */
  take(bytes: number) {
    this.used += bytes;
    if (this.used > this.limit) throw new InflateLimitError(this.limit);
  }
}

/**
 * `zlib` (RFC 1950), `raw` deflate (RFC 1951, as in ZIP entries), `gzip`, `br`; `http-deflate` is
 * the HTTP `deflate` coding, zlib-wrapped by the standard but sent raw by some servers.
 * `pdf-flate` is a FlateDecode stream as PDF.js reads it: a zlib header, then deflate data that may
 * refer back before its own start (PDF.js reads zeros there where zlib refuses), no checksum.
 */
export type Compression = 'zlib' | 'raw' | 'gzip' | 'br' | 'http-deflate' | 'pdf-flate';

const window = Buffer.alloc(32 * 1024);
const chunkSize = 64 * 1024;

/** A valid zlib header: deflate method, check bits, no preset dictionary. */
export function hasZlibHeader(bytes: Uint8Array) {
  return bytes.length >= 2 && (bytes[0] & 0x0f) === 8 && ((bytes[0] << 8) | bytes[1]) % 31 === 0 && (bytes[1] & 0x20) === 0;
}

function decompressor(format: Compression, input: Uint8Array): { stream: Transform; input: Uint8Array } {
  switch (format) {
    case 'zlib':
      return { stream: createInflate({ chunkSize }), input };
    case 'raw':
      return { stream: createInflateRaw({ chunkSize }), input };
    case 'gzip':
      return { stream: createGunzip({ chunkSize }), input };
    case 'br':
      return { stream: createBrotliDecompress({ chunkSize }), input };
    case 'http-deflate':
      return hasZlibHeader(input) ? { stream: createInflate({ chunkSize }), input } : { stream: createInflateRaw({ chunkSize }), input };
    case 'pdf-flate':
      return { stream: createInflateRaw({ chunkSize, dictionary: window }), input: input.subarray(2) };
  }
}

export interface InflateOptions {
  /** Resolve with what came out of input that ends too early, instead of failing (PDF.js reads such streams). */
  partial?: boolean;
}

/**
 * Decompresses `input`, counting the output against `budget`: rejects with InflateLimitError the
 * moment it passes, and with zlib's error (`code` Z_DATA_ERROR) for corrupt data. Bytes after the
 * end of the compressed data are ignored.
 */
export function inflate(input: Uint8Array, format: Compression, budget: InflateBudget, options: InflateOptions = {}): Promise<Buffer> {
  const { stream, input: data } = decompressor(format, input);
  return new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let done = false;
    const finish = (error?: Error) => {
      if (done) return;
      done = true;
      stream.destroy();
      const truncated = (error as NodeJS.ErrnoException | undefined)?.code === 'Z_BUF_ERROR';
      if (error && !(options.partial && truncated)) reject(error);
      else resolve(Buffer.concat(chunks));
    };
    stream.on('data', (chunk: Buffer) => {
      if (done) return;
      try {
        budget.take(chunk.length);
      } catch (error) {
        finish(error as Error);
        return;
      }
      chunks.push(chunk);
    });
    stream.on('end', () => finish());
    stream.on('error', (error: Error) => finish(error));
    stream.end(data);
  });
}
