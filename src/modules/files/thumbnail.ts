import { availableParallelism } from 'node:os';
import sharp, { type Metadata } from 'sharp';
import { badInput } from '../../errors.js';
import { bmpSize, bmpThumbnail } from './bmp.js';

// Thumbnails fit in 200x200 and keep the aspect ratio; smaller images are not enlarged.
// Decoding never runs on the event loop: sharp (libvips) works on libuv's thread pool and its
// own threads, and BMP, which libvips cannot read, is decoded on a worker thread. The pixel
// count is checked from the header before anything is decoded: a small file must not unpack
// into gigabytes.

export const thumbnailSide = 200;

/** Raster types the decoder reads: what the image endpoints accept. */
export const thumbnailTypes = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/bmp', 'image/tiff']);

/**
 * The libvips loader each type must be read with. libvips sniffs formats itself and reads many
 * more (SVG, PDF...): bytes it would read as anything else are refused, never decoded.
 */
const sharpFormats: Record<string, string> = { 'image/png': 'png', 'image/jpeg': 'jpeg', 'image/gif': 'gif', 'image/tiff': 'tiff' };

export interface Thumbnail {
  bytes: Buffer;
  type: 'image/png' | 'image/jpeg';
}

/**
 * Images decoded at once. They leave a core to the event loop (one image at a time on two
 * cores), and at most 2 of libuv's 4 pool threads, which also serve file reads and writes and
 * DNS lookups: a burst of large uploads queues behind itself, not in front of other requests.
 */
const imagesAtOnce = Math.max(1, Math.min(2, availableParallelism() - 1));
const bmpTimeoutMs = 20_000;

const unreadable = () => badInput('file', 'file: is not a readable image');

export class Thumbnailer {
  private running = 0;
  private waiting: Array<() => void> = [];

  constructor(private maxPixels: number) {}

  async make(bytes: Buffer, type: string): Promise<Thumbnail> {
    await this.slot();
    try {
      return await this.render(bytes, type);
    } finally {
      this.release();
    }
  }

  private async render(bytes: Buffer, type: string): Promise<Thumbnail> {
    if (type === 'image/bmp') return { bytes: await this.bmp(bytes), type: 'image/png' };
    const input = await this.sharpInput(bytes, type);
    // JPEG stays JPEG (photos); everything else becomes PNG, which keeps transparency.
    const output = type === 'image/jpeg' ? 'image/jpeg' : 'image/png';
    // Camera photos are turned upright from their EXIF orientation; metadata is not copied over.
    const pipeline = input.autoOrient().resize(thumbnailSide, thumbnailSide, { fit: 'inside', withoutEnlargement: true });
    try {
      return { bytes: await (output === 'image/jpeg' ? pipeline.jpeg() : pipeline.png()).toBuffer(), type: output };
    } catch {
      throw unreadable();
    }
  }

  private async sharpInput(bytes: Buffer, type: string) {
    let header: Metadata;
    try {
      // The header alone: nothing is decoded yet.
      header = await sharp(bytes, { limitInputPixels: false }).metadata();
    } catch {
      throw unreadable();
    }
    if (!sharpFormats[type] || header.format !== sharpFormats[type]) throw unreadable();
    this.checkPixels(header.width, header.height);
    return sharp(bytes, { limitInputPixels: this.maxPixels, failOn: 'error' });
  }

  private async bmp(bytes: Buffer) {
    const size = bmpSize(bytes);
    this.checkPixels(size?.width, size?.height);
    try {
      return await bmpThumbnail(bytes, { side: thumbnailSide, maxPixels: this.maxPixels, timeoutMs: bmpTimeoutMs });
    } catch {
      throw unreadable();
    }
  }

  private checkPixels(width: number | undefined, height: number | undefined) {
    if (!width || !height) throw unreadable();
    if (width * height > this.maxPixels) {
      const megapixels = this.maxPixels / 1_000_000;
      throw badInput('file', `file: images may have at most ${megapixels} megapixel${megapixels === 1 ? '' : 's'} (width x height); this one is ${width}x${height}`);
    }
  }

  private async slot() {
    if (this.running < imagesAtOnce) {
      this.running++;
      return;
    }
    // The finishing job hands its slot straight to the next in line.
    await new Promise<void>((resolve) => this.waiting.push(resolve));
  }

  private release() {
    const next = this.waiting.shift();
    if (next) next();
    else this.running--;
  }
}
