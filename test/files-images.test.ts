import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type SeededProject, type TestApp } from './helpers/app.js';
import { bmp, pngHeader, rle8Bmp, solid } from './helpers/images.js';

// Image uploads are decoded and thumbnailed off the event loop, within a pixel budget.

let t: TestApp;
let p: SeededProject;

beforeAll(async () => {
  // The default budget: 50 megapixels.
  t = await createTestApp();
  p = await t.seedProject('Images');
});
afterAll(() => t.close());

function form(bytes: Buffer, name: string) {
  const body = new FormData();
  body.append('file', new Blob([new Uint8Array(bytes)]), name);
  return body;
}
const uploadImage = (bytes: Buffer, name: string) => t.post('/v3/images/users', { token: p.agent.token, body: form(bytes, name) });

async function thumbnailOf(thumbnailPath: string) {
  const response = await fetch(`${t.baseUrl}/v3/images?path=${encodeURIComponent(thumbnailPath)}`, {
    headers: { authorization: p.agent.token },
  });
  expect(response.status).toBe(200);
  return { type: response.headers.get('content-type'), ...(await sharp(Buffer.from(await response.arrayBuffer())).metadata()) };
}

/** Latencies of /health requests sent one after another until `done` settles. */
async function healthLatencies(done: Promise<unknown>) {
  let settled = false;
  void done.finally(() => {
    settled = true;
  });
  const latencies: number[] = [];
  while (!settled) {
    const started = performance.now();
    await (await fetch(`${t.baseUrl}/health`)).arrayBuffer();
    latencies.push(performance.now() - started);
  }
  return latencies;
}

describe('image uploads and the event loop', () => {
  it('keep other requests answered while large images are thumbnailed', async () => {
    // 36 and 9 megapixels in under 200 KB: cheap to send, costly to decode. How long the other
    // requests wait meanwhile is measured by `npm run bench files`, not here.
    const png = await solid(6000, 6000).png({ compressionLevel: 9 }).toBuffer();
    const bitmap = rle8Bmp(3000, 3000);
    const uploads = Promise.all([uploadImage(png, 'large-1.png'), uploadImage(png, 'large-2.png'), uploadImage(bitmap, 'large.bmp')]);
    const latencies = await healthLatencies(uploads);
    expect((await uploads).map((r) => r.status)).toEqual([200, 200, 200]);
    expect(latencies.length).toBeGreaterThanOrEqual(3);
  });
});

describe('the default pixel budget of 50 megapixels', () => {
  it('answers 400 naming file for a PNG whose header claims more pixels than the budget', async () => {
    const res = await uploadImage(pngHeader(10_000, 6_000), 'huge.png');
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'BAD_USER_INPUT', field: 'file' });
    expect(res.body.message).toMatch(/at most 50 megapixels/);
  });

  it('answers 400 naming file for a BMP whose header claims more pixels than the budget', async () => {
    const res = await uploadImage(bmp(4, 4, { width: 100_000, height: 100_000 }), 'claims.bmp');
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'BAD_USER_INPUT', field: 'file' });
    expect(res.body.message).toMatch(/at most 50 megapixels/);
  });

  it('answers 400 naming file for a BMP whose pixels are cut short', async () => {
    const res = await uploadImage(bmp(300, 300).subarray(0, 2000), 'cut.bmp');
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'BAD_USER_INPUT', field: 'file' });
  });
});

describe('with FILE_MAX_PIXELS=1000000', () => {
  let small: TestApp;
  let token: string;

  beforeAll(async () => {
    small = await createTestApp({ FILE_MAX_PIXELS: '1000000' });
    token = (await small.newUser('pixels')).token;
  });
  afterAll(() => small?.close());

  const upload = async (width: number, height: number) =>
    small.post('/v3/images/users', { token, body: form(await solid(width, height).png().toBuffer(), 'edge.png') });

  it('takes an image of exactly the budget', async () => {
    expect((await upload(1000, 1000)).status).toBe(200);
  });

  it('answers 400 naming file for an image one row over the budget', async () => {
    const res = await upload(1000, 1001);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'BAD_USER_INPUT', field: 'file' });
    expect(res.body.message).toBe('file: images may have at most 1 megapixel (width x height); this one is 1000x1001');
  });
});

describe('formats', () => {
  it.each([
    ['PNG', 'png', () => solid(640, 320).png().toBuffer(), 'image/png', [200, 100]],
    ['JPEG', 'jpg', () => solid(640, 320).jpeg().toBuffer(), 'image/jpeg', [200, 100]],
    ['GIF', 'gif', () => solid(640, 320).gif().toBuffer(), 'image/png', [200, 100]],
    ['TIFF', 'tiff', () => solid(320, 640).tiff().toBuffer(), 'image/png', [100, 200]],
    ['BMP', 'bmp', async () => bmp(640, 320), 'image/png', [200, 100]],
  ] as const)('thumbnails a %s to fit 200x200', async (_format, extension, make, thumbnailType, size) => {
    const res = await uploadImage(await make(), `picture.${extension}`);
    expect(res.status).toBe(200);
    const thumbnail = await thumbnailOf(res.body.thumbnail);
    expect(thumbnail.type).toBe(thumbnailType);
    expect([thumbnail.width, thumbnail.height]).toEqual(size);
  });

  it('keeps the colours of a BMP in its thumbnail', async () => {
    const res = await uploadImage(bmp(50, 40), 'colour.bmp');
    const response = await fetch(`${t.baseUrl}/v3/images?path=${encodeURIComponent(res.body.thumbnail)}`, {
      headers: { authorization: p.agent.token },
    });
    const { data } = await sharp(Buffer.from(await response.arrayBuffer())).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    expect([...data.subarray(0, 3)]).toEqual([0x33, 0x66, 0xcc]);
  });
});
