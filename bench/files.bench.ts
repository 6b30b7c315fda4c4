// Image uploads and the event loop: two 36-megapixel PNGs and a 9-megapixel run-length BMP (under
// 200 KB each) are uploaded at once while /health is called back to back; then /health is called
// for as long again at rest. Embedded mode, nothing else running. Five rounds.
// Target: the slowest /health answer during the uploads within 100 ms of the slowest at rest
// (median of the rounds): decoding and thumbnailing run off the event loop (libvips threads, a
// worker thread for BMP). test/files-images.test.ts checks that the node answers meanwhile.
import { startServer } from '../src/server.js';
import { rle8Bmp, solid } from '../test/helpers/images.js';
import { benchConfig } from './environment.js';
import { json, printTable } from './lib.js';

const rounds = 5;
const marginMs = 100;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1];

export default async function run() {
  const server = await startServer(benchConfig());
  try {
    const email = `images-${Date.now()}@bench.test`;
    await json(`${server.url}/v3/auth/signup`, 'POST', undefined, { email, password: 'bench password 1' });
    const { token } = await json(`${server.url}/v3/auth/signin`, 'POST', undefined, { email, password: 'bench password 1' });
    const upload = async (bytes: Buffer, name: string) => {
      const body = new FormData();
      body.append('file', new Blob([new Uint8Array(bytes)]), name);
      const res = await fetch(`${server.url}/v3/images/users`, { method: 'POST', headers: { authorization: token }, body });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`upload ${name}: ${res.status}`);
    };
    /** The slowest of /health answers sent one after another until `done` settles, and how many. */
    const slowestHealth = async (done: Promise<unknown>) => {
      let settled = false;
      void done.finally(() => (settled = true));
      let slowest = 0;
      let answers = 0;
      while (!settled) {
        const started = performance.now();
        await (await fetch(`${server.url}/health`)).arrayBuffer();
        slowest = Math.max(slowest, performance.now() - started);
        answers++;
      }
      return { slowest, answers };
    };

    const png = await solid(6000, 6000).png({ compressionLevel: 9 }).toBuffer();
    const bitmap = rle8Bmp(3000, 3000);
    await upload(await solid(64, 64).png().toBuffer(), 'warm.png');

    const during: number[] = [];
    const atRest: number[] = [];
    let answers = 0;
    let uploadMs = 0;
    for (let round = 0; round < rounds; round++) {
      const started = performance.now();
      const uploads = Promise.all([upload(png, 'large-1.png'), upload(png, 'large-2.png'), upload(bitmap, 'large.bmp')]);
      const busy = await slowestHealth(uploads);
      await uploads;
      const elapsed = performance.now() - started;
      uploadMs += elapsed;
      answers += busy.answers;
      during.push(busy.slowest);
      atRest.push((await slowestHealth(new Promise((resolve) => setTimeout(resolve, elapsed)))).slowest);
    }
    printTable('Three large images uploaded at once, /health called meanwhile (median of 5 rounds)', [
      {
        'uploads ms (mean)': Math.round(uploadMs / rounds),
        'health answers during uploads (mean)': Math.round(answers / rounds),
        'slowest health, uploading ms': median(during).toFixed(1),
        'slowest health, at rest ms': median(atRest).toFixed(1),
        [`target within ${marginMs} ms`]: median(during) < median(atRest) + marginMs ? 'met' : 'MISSED',
      },
    ]);
  } finally {
    await server.close();
  }
}
