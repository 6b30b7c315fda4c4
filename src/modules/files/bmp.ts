import { Worker } from 'node:worker_threads';

// BMP is the one accepted image type sharp cannot read. Its header is read here (a few bytes);
// its thumbnail is made on a worker thread (bmp-thumbnail.worker.mjs), bounded in time and heap.

/** Width and height from the BMP header, or null when there is no readable header. */
export function bmpSize(bytes: Buffer): { width: number; height: number } | null {
  if (bytes.length < 26 || bytes.toString('latin1', 0, 2) !== 'BM') return null;
  const headerSize = bytes.readUInt32LE(14);
  // The old OS/2 core header has 16-bit dimensions; every later one 32-bit, the height signed (top-down rows).
  const [width, height] =
    headerSize === 12 ? [bytes.readUInt16LE(18), bytes.readInt16LE(20)] : [bytes.readInt32LE(18), bytes.readInt32LE(22)];
  if (width <= 0 || height === 0) return null;
  return { width, height: Math.abs(height) };
}

const workerUrl = new URL('./bmp-thumbnail.worker.mjs', import.meta.url);

export interface BmpThumbnailOptions {
  side: number;
  maxPixels: number;
  timeoutMs: number;
}

/** The PNG thumbnail of a BMP, made on a worker thread; rejects when it cannot be made within `timeoutMs`. */
export function bmpThumbnail(bytes: Buffer, { side, maxPixels, timeoutMs }: BmpThumbnailOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    // The pixels live outside the worker's heap; the heap only holds the header and palette.
    const worker = new Worker(workerUrl, { workerData: { bytes, side, maxPixels }, resourceLimits: { maxOldGenerationSizeMb: 64 } });
    let settled = false;
    const finish = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      void worker.terminate();
      outcome();
    };
    const timer = setTimeout(() => finish(() => reject(new Error(`BMP thumbnail took over ${timeoutMs} ms`))), timeoutMs);
    worker.once('message', (reply: { error?: string; thumbnail?: Uint8Array }) =>
      finish(() =>
        reply.thumbnail
          ? resolve(Buffer.from(reply.thumbnail.buffer, reply.thumbnail.byteOffset, reply.thumbnail.byteLength))
          : reject(new Error(reply.error ?? 'the BMP worker sent no thumbnail')),
      ),
    );
    worker.once('error', (error) => finish(() => reject(error)));
    worker.once('exit', (code) => finish(() => reject(new Error(`the BMP worker exited with code ${code}`))));
  });
}
