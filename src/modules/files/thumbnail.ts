import { imageSize } from 'image-size';
import { Jimp } from 'jimp';
import { badInput } from '../../errors.js';

// Thumbnails fit in 200x200 and keep the aspect ratio; smaller images are not enlarged.
// Decoding is pure JavaScript (no native binaries), so the pixel count is checked from the
// header first: a small file must not unpack into gigabytes.

export const thumbnailSide = 200;
const maxPixels = 50_000_000;

/** Raster types the decoder reads: what the image endpoints accept. */
export const thumbnailTypes = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/bmp', 'image/tiff']);

const unreadable = () => badInput('file', 'file: is not a readable image');

export async function makeThumbnail(bytes: Buffer, type: string): Promise<{ bytes: Buffer; type: 'image/png' | 'image/jpeg' }> {
  let size: { width?: number; height?: number };
  try {
    size = imageSize(bytes);
  } catch {
    throw unreadable();
  }
  if (!size.width || !size.height) throw unreadable();
  if (size.width * size.height > maxPixels) {
    throw badInput('file', `file: images may have at most ${maxPixels / 1_000_000} megapixels`);
  }
  let image: Awaited<ReturnType<typeof Jimp.read>>;
  try {
    image = await Jimp.read(bytes);
  } catch {
    throw unreadable();
  }
  if (image.width > thumbnailSide || image.height > thumbnailSide) {
    image.scaleToFit({ w: thumbnailSide, h: thumbnailSide });
  }
  // JPEG stays JPEG (photos); everything else becomes PNG, which keeps transparency.
  const output = type === 'image/jpeg' ? 'image/jpeg' : 'image/png';
  return { bytes: await image.getBuffer(output), type: output };
}
