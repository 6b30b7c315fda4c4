import { crc32, deflateSync } from 'node:zlib';
import sharp from 'sharp';

// Images for upload tests and the files benchmark, made in memory: large in pixels, small in bytes.

/** A sharp pipeline of one colour, to encode as PNG, JPEG, ... */
export const solid = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: '#3366cc' } });

/** A 70-byte PNG claiming `width` x `height` pixels, with one row of data behind the header. */
export function pngHeader(width: number, height: number) {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const framed = Buffer.alloc(body.length + 8);
    framed.writeUInt32BE(data.length, 0);
    body.copy(framed, 4);
    framed.writeUInt32BE(crc32(body), body.length + 4);
    return framed;
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', header), chunk('IDAT', deflateSync(Buffer.alloc(4))), chunk('IEND', Buffer.alloc(0))]);
}

/** An uncompressed 24-bit BMP, written by hand (no encoder needed): bottom-up rows padded to 4 bytes. */
export function bmp(width: number, height: number, declared = { width, height }) {
  const row = Math.ceil((width * 3) / 4) * 4;
  const bytes = Buffer.alloc(54 + row * height);
  bytes.write('BM', 0, 'latin1');
  bytes.writeUInt32LE(bytes.length, 2);
  bytes.writeUInt32LE(54, 10);
  bytes.writeUInt32LE(40, 14);
  bytes.writeInt32LE(declared.width, 18);
  bytes.writeInt32LE(declared.height, 22);
  bytes.writeUInt16LE(1, 26);
  bytes.writeUInt16LE(24, 28);
  bytes.writeUInt32LE(row * height, 34);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) bytes.set([0xcc, 0x66, 0x33], 54 + y * row + x * 3);
  }
  return bytes;
}

/** A run-length encoded 8-bit BMP of one colour: a few bytes per 255 pixels. */
export function rle8Bmp(width: number, height: number) {
  const runs: number[] = [];
  for (let y = 0; y < height; y++) {
    for (let left = width; left > 0; left -= 255) runs.push(Math.min(255, left), 1);
    runs.push(0, 0);
  }
  runs.push(0, 1);
  const palette = Buffer.alloc(256 * 4);
  palette.set([0xcc, 0x66, 0x33, 0], 4);
  const header = Buffer.alloc(54);
  header.write('BM', 0, 'latin1');
  header.writeUInt32LE(54 + palette.length + runs.length, 2);
  header.writeUInt32LE(54 + palette.length, 10);
  header.writeUInt32LE(40, 14);
  header.writeInt32LE(width, 18);
  header.writeInt32LE(height, 22);
  header.writeUInt16LE(1, 26);
  header.writeUInt16LE(8, 28);
  header.writeUInt32LE(1, 30);
  header.writeUInt32LE(runs.length, 34);
  header.writeUInt32LE(256, 46);
  return Buffer.concat([header, palette, Buffer.from(runs)]);
}
