import { Writable } from 'node:stream';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { createInfrastructure } from '../src/infra/index.js';
import { createLogger } from '../src/infra/logger.js';
import { createTestServer, testEnvironment, type SeededProject, type TestApp } from './helpers/app.js';
import { productionMode } from './helpers/environment.js';
import { startS3Server, type S3Server } from './helpers/s3-server.js';

// FILES_URL: files in an S3-protocol object store (a real one, s3rver, on 127.0.0.1), shared by
// every node. In production mode two nodes share the database, Redis and the bucket.

const bucket = 'support-files';
const prefix = 'tenant-a/uploads';
const maxBytes = 3_000_000;
let s3: S3Server;
let a: TestApp;
let b: TestApp;
let p: SeededProject;
let other: SeededProject;

beforeAll(async () => {
  s3 = await startS3Server([bucket]);
  const env = { ...s3.env(bucket, prefix), FILE_MAX_BYTES: String(maxBytes) };
  const first = await createTestServer(env);
  a = first.client;
  // In embedded mode a second node cannot share the database: both names are the one node.
  b = productionMode ? (await createTestServer(env, { databaseUrl: first.config.databaseUrl, prefix: first.config.redisPrefix })).client : a;
  p = await a.seedProject('Files in S3');
  other = await a.seedProject('Another project');
}, 60_000);
afterAll(async () => {
  if (b && b !== a) await b.close();
  await a?.close();
  await s3?.close();
});

function form(bytes: Buffer, name: string) {
  const body = new FormData();
  body.append('file', new Blob([new Uint8Array(bytes)], { type: 'application/octet-stream' }), name);
  return body;
}
const upload = (app: TestApp, route: string, bytes: Buffer, name: string, token: string) => app.post(route, { token, body: form(bytes, name) });
async function download(app: TestApp, route: string, token: string) {
  const response = await fetch(`${app.baseUrl}${route}`, { headers: { authorization: token } });
  return { status: response.status, headers: response.headers, bytes: Buffer.from(await response.arrayBuffer()) };
}
const q = (storagePath: string) => encodeURIComponent(storagePath);
const pdf = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF');

describe('files with FILES_URL', () => {
  it('keeps an upload in the bucket under the prefix, at its storage path', async () => {
    const { body } = await upload(a, '/v3/files/users', pdf, 'terms.pdf', p.agent.token);
    expect(await s3.keys(bucket, `${prefix}/`)).toContain(`${prefix}/${body.filename}`);
  });

  it('serves a file uploaded on node A from node B, byte for byte', async () => {
    const bytes = Buffer.concat([pdf, Buffer.alloc(2_500_000, 7)]);
    const { body } = await upload(a, `/v3/${p.projectId}/files`, bytes, 'big.pdf', p.admin.token);
    const res = await download(b, `/v3/files?path=${q(body.filename)}`, p.agent.token);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(res.bytes.equals(bytes)).toBe(true);
  });

  it('serves an image and its thumbnail uploaded on node A from node B', async () => {
    const image = await sharp({ create: { width: 600, height: 300, channels: 3, background: '#3366cc' } }).png().toBuffer();
    const { body } = await upload(a, '/v3/images/users', image, 'logo.png', p.agent.token);
    const full = await download(b, `/v3/images?path=${q(body.filename)}`, p.agent.token);
    expect(full.status).toBe(200);
    expect(full.bytes.equals(image)).toBe(true);
    const thumbnail = await download(b, `/v3/images?path=${q(body.thumbnail)}`, p.agent.token);
    expect(thumbnail.status).toBe(200);
    expect((await sharp(thumbnail.bytes).metadata()).width).toBeLessThan(600);
  });

  it('keeps a private file from another project\'s teammates on every node', async () => {
    const { body } = await upload(a, `/v3/${p.projectId}/files`, pdf, 'private.pdf', p.admin.token);
    for (const app of [a, b]) {
      const res = await download(app, `/v3/files?path=${q(body.filename)}`, other.owner.token);
      expect(res.status).toBe(404);
      expect(res.bytes.toString()).not.toContain('%PDF');
    }
  });

  it('refuses a path that leaves the store with 400, before the bucket is asked', async () => {
    const res = await b.get(`/v3/files?path=${q('../../etc/passwd')}`, { token: p.agent.token });
    expect(res.status).toBe(400);
    expect(res.body.code ?? res.body.error?.code).toBeTruthy();
  });

  it('refuses an upload above FILE_MAX_BYTES with 413 and writes nothing to the bucket', async () => {
    const before = await s3.keys(bucket, `${prefix}/`);
    const res = await upload(b, '/v3/files/users', Buffer.concat([pdf, Buffer.alloc(maxBytes, 1)]), 'huge.pdf', p.agent.token);
    expect(res.status).toBe(413);
    expect(await s3.keys(bucket, `${prefix}/`)).toEqual(before);
  });

  it('removes the object from the bucket when the file is deleted on node B', async () => {
    const { body } = await upload(a, '/v3/files/users', pdf, 'gone.pdf', p.agent.token);
    expect((await b.delete(`/v3/files?path=${q(body.filename)}`, { token: p.agent.token })).status).toBe(200);
    expect(await s3.keys(bucket, `${prefix}/`)).not.toContain(`${prefix}/${body.filename}`);
    expect((await download(a, `/v3/files?path=${q(body.filename)}`, p.agent.token)).status).toBe(404);
  });
});

describe('starting with FILES_URL', () => {
  it('fails naming FILES_URL when the bucket does not exist', async () => {
    const environment = await testEnvironment(s3.env('no-such-bucket'));
    try {
      await expect(createInfrastructure(environment.config, { inMemory: true })).rejects.toThrow(/FILES_URL: bucket no-such-bucket/);
    } finally {
      await environment.dispose();
    }
  });

  it('refuses a FILES_URL that is not an s3:// URL, naming it', () => {
    expect(() => loadConfig({ FILES_URL: 'https://bucket.example/files' })).toThrow(/FILES_URL: must be an s3:\/\/bucket/);
  });

  it('refuses S3 settings without FILES_URL, naming the setting', () => {
    expect(() => loadConfig({ S3_ENDPOINT: 'http://127.0.0.1:9000' })).toThrow(/S3_ENDPOINT: is set but FILES_URL is not/);
  });

  it('refuses FILES_DIR and FILES_URL together', () => {
    expect(() => loadConfig({ FILES_URL: 's3://bucket', FILES_DIR: '/tmp/files' })).toThrow(/FILES_DIR/);
  });
});

describe.skipIf(!productionMode)('a node with a shared database and local files', () => {
  async function startLines(overrides: Record<string, string>) {
    const lines: string[] = [];
    const sink = new Writable({ write(chunk, _encoding, done) { lines.push(String(chunk)); done(); } });
    const environment = await testEnvironment({ ...overrides, LOG_LEVEL: 'warn' });
    const infra = await createInfrastructure(environment.config, { inMemory: true, logger: createLogger('warn', sink) });
    await infra.close();
    await environment.dispose();
    return lines.map((line) => JSON.parse(line) as { level: number; msg: string });
  }

  it('logs a warning that other nodes cannot read its files', async () => {
    const warnings = (await startLines({})).filter((line) => line.level === 40).map((line) => line.msg);
    expect(warnings.some((msg) => /other nodes cannot read them; set FILES_URL/.test(msg))).toBe(true);
  });

  it('logs no such warning with FILES_URL', async () => {
    const warnings = (await startLines(s3.env(bucket, prefix))).map((line) => line.msg);
    expect(warnings.some((msg) => /other nodes cannot read them/.test(msg))).toBe(false);
  });
});
