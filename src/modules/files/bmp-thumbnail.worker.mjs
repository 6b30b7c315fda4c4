// Makes the thumbnail of one BMP on a worker thread: sharp's libvips build has no BMP loader, so
// the pixels are decoded here in JavaScript, then resized by sharp. Nothing large reaches the
// main thread: neither the decoding work nor the pixel buffer, only the thumbnail. Plain
// JavaScript, because Node starts worker threads itself, outside tsx and vitest. The caller has
// already checked the dimensions in the header against the pixel budget.
import { parentPort, workerData } from 'node:worker_threads';
import { decode } from 'bmp-ts';
import sharp from 'sharp';

const { bytes, side, maxPixels } = workerData;

try {
  const image = decode(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), { toRGBA: true });
  const width = image.width;
  const height = Math.abs(image.height);
  if (!width || !height || image.data.length !== width * height * 4) throw new Error('unexpected pixel buffer');
  // BMP alpha is rarely meant as such (24-bit files carry none): BMP thumbnails are opaque.
  const thumbnail = await sharp(image.data, { raw: { width, height, channels: 4 }, limitInputPixels: maxPixels })
    .removeAlpha()
    .resize(side, side, { fit: 'inside', withoutEnlargement: true })
    .png()
    .toBuffer();
  parentPort.postMessage({ thumbnail });
} catch (error) {
  parentPort.postMessage({ error: String(error?.message ?? error) });
}
