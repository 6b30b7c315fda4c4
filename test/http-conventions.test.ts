import { request as httpRequest } from 'node:http';
import { Writable } from 'node:stream';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { createInfrastructure } from '../src/infra/index.js';
import { compressionThresholdBytes } from '../src/http/compression.js';
import { createLogger } from '../src/infra/logger.js';
import { createTestApp, serveTestApp, testEnvironment, type SeededProject, type TestApp } from './helpers/app.js';

// What every answer of the server follows, whichever lane writes it: the REST lane (/v3 routes),
// the GraphQL lane (POST /graphql), and yoga for the rest (GraphQL GET, the OpenAPI document, 404s).

/** An answer as the bytes sent: node's client neither decompresses nor hides anything. */
function raw(url: string, options: { method?: string; headers?: Record<string, string>; body?: string } = {}) {
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }>((resolve, reject) => {
    const req = httpRequest(url, { method: options.method ?? 'GET', headers: options.headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

const page = 'https://app.example.com';
const stranger = 'https://evil.example.net';

describe('with the default CORS_ORIGINS (*)', () => {
  let t: TestApp;
  let p: SeededProject;
  beforeAll(async () => {
    t = await createTestApp();
    p = await t.seedProject('Conventions');
  });
  afterAll(() => t?.close());

  const lanes = () => [
    ['a REST route', 'GET', `/v3/${p.projectId}/departments`, undefined],
    ['a GraphQL POST', 'POST', '/graphql', JSON.stringify({ query: '{ __typename }' })],
    ['a GraphQL GET (yoga)', 'GET', '/graphql?query=%7B__typename%7D', undefined],
    ['an unknown path', 'GET', '/v3/no/such/route', undefined],
  ] as const;

  it('lets any page read the answer of every lane, without the browser\'s own credentials', async () => {
    for (const [, method, path, body] of lanes()) {
      const headers: Record<string, string> = { origin: page, authorization: p.agent.token, accept: 'application/json' };
      if (body) headers['content-type'] = 'application/json';
      const answer = await raw(`${t.baseUrl}${path}`, { method, headers, body });
      expect(answer.headers['access-control-allow-origin'], path).toBe('*');
      expect(answer.headers['access-control-allow-credentials'], path).toBeUndefined();
      expect(answer.headers['access-control-expose-headers'], path).toContain('x-request-id');
    }
  });

  it('answers a preflight with the methods, the headers asked for and how long to keep it', async () => {
    const answer = await raw(`${t.baseUrl}/v3/${p.projectId}/departments`, {
      method: 'OPTIONS',
      headers: { origin: page, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type' },
    });
    expect(answer.status).toBe(204);
    expect(answer.headers['access-control-allow-origin']).toBe('*');
    expect(answer.headers['access-control-allow-methods']).toContain('POST');
    expect(answer.headers['access-control-allow-headers']).toBe('authorization, content-type');
    expect(answer.headers['access-control-max-age']).toBe('600');
  });

  it('answers a known path asked with another method 405, with Allow and the error body', async () => {
    const answer = await t.request('PATCH', '/v3/auth/signin', { body: {} });
    expect(answer.status).toBe(405);
    expect(answer.headers.get('allow')).toBe('POST, OPTIONS');
    expect(answer.body).toMatchObject({ success: false, code: 'METHOD_NOT_ALLOWED', field: 'method' });
    const health = await t.request('DELETE', '/health');
    expect(health.status).toBe(405);
    expect(health.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
  });

  it('answers a hand-written route\'s path asked with another method 405, its Allow naming the methods of both kinds of route', async () => {
    // GET and DELETE /v3/files are written by hand (downloads), /v3/files/limits is generated.
    const files = await t.request('PUT', '/v3/files');
    expect(files.status).toBe(405);
    expect(files.headers.get('allow')).toBe('GET, DELETE, HEAD, OPTIONS');
    // POST /v3/:project_id/kb takes JSON (generated) and multipart (by hand); GET lists (generated).
    const kb = await t.request('PATCH', `/v3/${p.projectId}/kb`, { body: {} });
    expect(kb.status).toBe(405);
    expect(kb.headers.get('allow')).toBe('GET, POST, HEAD, OPTIONS');
  });

  it('still answers an unknown path 404', async () => {
    const answer = await t.request('PATCH', '/v3/no/such/route');
    expect(answer.status).toBe(404);
    expect(answer.body).toMatchObject({ code: 'NOT_FOUND' });
  });

  it('answers HEAD wherever GET answers, with GET\'s status and headers and no body', async () => {
    for (const path of ['/health', `/v3/${p.projectId}/departments`, '/v3/openapi.json', '/graphql?query=%7B__typename%7D']) {
      const headers = { authorization: p.agent.token, accept: 'application/json' };
      const get = await raw(`${t.baseUrl}${path}`, { headers });
      const head = await raw(`${t.baseUrl}${path}`, { method: 'HEAD', headers });
      expect(head.status, path).toBe(get.status);
      expect(head.status, path).toBe(200);
      expect(head.headers['content-type'], path).toBe(get.headers['content-type']);
      expect(head.body.length, path).toBe(0);
    }
  });

  it('answers /health with a JSON body', async () => {
    const answer = await t.get('/health');
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
    expect(answer.body).toEqual({ status: 'ok' });
  });

  it('gives every answer an x-request-id: the caller\'s when well-formed, else a new one', async () => {
    for (const [, method, path, body] of lanes()) {
      const headers: Record<string, string> = { authorization: p.agent.token, 'x-request-id': 'trace-42.a', accept: 'application/json' };
      if (body) headers['content-type'] = 'application/json';
      expect((await raw(`${t.baseUrl}${path}`, { method, headers, body })).headers['x-request-id'], path).toBe('trace-42.a');
    }
    const made = (await raw(`${t.baseUrl}/health`, { headers: { 'x-request-id': 'bad id\twith "quotes"' } })).headers['x-request-id'];
    expect(made).toMatch(/^[0-9a-f-]{36}$/);
    const none = (await raw(`${t.baseUrl}/health`)).headers['x-request-id'];
    expect(none).toMatch(/^[0-9a-f-]{36}$/);
    expect(none).not.toBe(made);
  });

  it('puts the request id in error bodies', async () => {
    const answer = await t.request('GET', `/v3/${p.projectId}/departments`, { headers: { 'x-request-id': 'err-7' } });
    expect(answer.status).toBe(401);
    expect(answer.body).toMatchObject({ code: 'UNAUTHENTICATED', request_id: 'err-7' });
  });

  it('compresses large JSON with br or gzip as the client accepts, from both the lanes and yoga', async () => {
    // Enough departments for a list over the threshold.
    for (let i = 0; i < 30; i++) await t.post(`/v3/${p.projectId}/departments`, { token: p.admin.token, body: { name: `Department number ${i} with a long name` } });
    for (const path of [`/v3/${p.projectId}/departments`, '/v3/openapi.json']) {
      const plain = await raw(`${t.baseUrl}${path}`, { headers: { authorization: p.agent.token } });
      expect(plain.headers['content-encoding'], path).toBeUndefined();
      expect(plain.body.length, path).toBeGreaterThan(compressionThresholdBytes);
      const gzip = await raw(`${t.baseUrl}${path}`, { headers: { authorization: p.agent.token, 'accept-encoding': 'gzip' } });
      expect(gzip.headers['content-encoding'], path).toBe('gzip');
      expect(gzip.headers.vary, path).toContain('accept-encoding');
      expect(gunzipSync(gzip.body).equals(plain.body), path).toBe(true);
      const br = await raw(`${t.baseUrl}${path}`, { headers: { authorization: p.agent.token, 'accept-encoding': 'gzip, deflate, br' } });
      expect(br.headers['content-encoding'], path).toBe('br');
      expect(br.body.length, path).toBeLessThan(plain.body.length / 2);
      expect(brotliDecompressSync(br.body).equals(plain.body), path).toBe(true);
    }
  });

  it('compresses once an answer a lane left to yoga (a chunked GraphQL POST)', async () => {
    const query = JSON.stringify({ query: '{ __schema { types { name description } } }' });
    const answer = await raw(`${t.baseUrl}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked', 'accept-encoding': 'gzip', authorization: p.agent.token },
      body: query,
    });
    expect(answer.status, answer.body.toString().slice(0, 300)).toBe(200);
    expect(answer.headers['content-encoding'], `${answer.body.length} ${JSON.stringify(answer.headers)}`).toBe('gzip');
    expect(JSON.parse(gunzipSync(answer.body).toString()).data.__schema.types.length).toBeGreaterThan(10);
  });

  it('leaves answers under 8 KB uncompressed: a health check, a posted message with its request', async () => {
    const health = await raw(`${t.baseUrl}/health`, { headers: { 'accept-encoding': 'gzip, br' } });
    expect(health.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(health.body.toString())).toEqual({ status: 'ok' });
    const message = await raw(`${t.baseUrl}/v3/${p.projectId}/requests/support-group-plain/messages`, {
      method: 'POST',
      headers: { authorization: p.guest.token, 'content-type': 'application/json', 'accept-encoding': 'gzip, br' },
      body: JSON.stringify({ text: 'hello' }),
    });
    expect(message.headers['content-encoding']).toBeUndefined();
    expect(message.body.length).toBeGreaterThan(1024);
    expect(JSON.parse(message.body.toString())).toMatchObject({ text: 'hello' });
  });
});

describe('with CORS_ORIGINS listing origins', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ CORS_ORIGINS: `${page},http://localhost:5173` });
  });
  afterAll(() => t?.close());

  it('answers a listed origin with that origin and credentials allowed', async () => {
    const answer = await raw(`${t.baseUrl}/graphql`, {
      method: 'POST',
      headers: { origin: page, 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ __typename }' }),
    });
    expect(answer.headers['access-control-allow-origin']).toBe(page);
    expect(answer.headers['access-control-allow-credentials']).toBe('true');
    expect(answer.headers.vary).toContain('origin');
  });

  it('never reflects an origin that is not listed, in answers or preflights', async () => {
    const answer = await raw(`${t.baseUrl}/v3/openapi.json`, { headers: { origin: stranger } });
    expect(answer.status).toBe(200);
    expect(answer.headers['access-control-allow-origin']).toBeUndefined();
    expect(answer.headers['access-control-allow-credentials']).toBeUndefined();
    const preflight = await raw(`${t.baseUrl}/graphql`, {
      method: 'OPTIONS',
      headers: { origin: stranger, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization' },
    });
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
    expect(preflight.headers['access-control-allow-headers']).toBeUndefined();
  });
});

describe('request ids in the log', () => {
  it('appear in every line written while a request runs, its request line included', async () => {
    const lines: Array<Record<string, unknown>> = [];
    const sink = new Writable({
      write(chunk, _encoding, done) {
        for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
        done();
      },
    });
    const environment = await testEnvironment();
    const infra = await createInfrastructure(environment.config, { inMemory: true, logger: createLogger('debug', sink) });
    const t = await serveTestApp(buildApp(infra), async () => {
      await infra.close();
      await environment.dispose();
    });
    try {
      lines.length = 0;
      // Two lanes and yoga: a REST call that fails, a GraphQL POST, a GraphQL GET.
      await t.request('GET', '/v3/no-such-project/departments', { headers: { 'x-request-id': 'log-1' }, token: 'JWT not-a-token' });
      await t.request('POST', '/graphql', { headers: { 'x-request-id': 'log-2' }, body: { query: '{ __typename }' } });
      await t.request('GET', '/graphql?query=%7B__typename%7D', { headers: { 'x-request-id': 'log-3', accept: 'application/json' } });
      const written = [...lines];
      expect(written.filter((l) => l.msg === 'request').map((l) => l.request_id)).toEqual(['log-1', 'log-2', 'log-3']);
      for (const line of written) expect(['log-1', 'log-2', 'log-3'], JSON.stringify(line)).toContain(line.request_id);
    } finally {
      await t.close();
    }
  });
});
