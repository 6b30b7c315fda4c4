import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, type SeededProject, type TestApp } from './helpers/app.js';
import { connect } from './helpers/realtime.js';

// Bodies and paths shaped to reach past the edge's checks: refused there with a 400 naming what is
// wrong, before they can hold the node up or fail deep inside it.

let t: TestApp;
let p: SeededProject;
beforeAll(async () => {
  // A listening server: the graphql-ws case needs its websocket endpoint.
  t = (await createTestServer()).client;
  p = await t.seedProject('Edges');
});
afterAll(() => t.close());

/** A multipart body of `count` one-byte fields, with its content type. */
function manyParts(count: number) {
  const boundary = 'b0undary';
  const body = Array.from({ length: count }, (_, i) => `--${boundary}\r\nContent-Disposition: form-data; name="f${i}"\r\n\r\nx\r\n`).join('') + `--${boundary}--\r\n`;
  return { body, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

describe('a NUL byte in a path id', () => {
  it('answers 400 naming the parameter on a multipart route (POST /v3/%00/kb), not 500', async () => {
    const form = new FormData();
    form.set('file', new Blob(['%PDF-1.4'], { type: 'application/pdf' }), 'a.pdf');
    const res = await t.post('/v3/%00/kb', { token: p.owner.token, body: form });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'BAD_USER_INPUT', field: 'project_id' });
  });

  it('answers 400 on the upload route (POST /v3/%00/files) and on a JSON route', async () => {
    const form = new FormData();
    form.set('file', new Blob(['hello'], { type: 'text/plain' }), 'a.txt');
    const upload = await t.post('/v3/%00/files', { token: p.owner.token, body: form });
    expect(upload.status).toBe(400);
    expect(upload.body).toMatchObject({ code: 'BAD_USER_INPUT', field: 'project_id' });
    const read = await t.get(`/v3/${p.projectId}/requests/x%00y/messages`, { token: p.owner.token });
    expect(read.status).toBe(400);
    expect(read.body).toMatchObject({ code: 'BAD_USER_INPUT', field: 'request_id' });
  });
});

/** POST on a connection of its own (no keep-alive), answering the status and the parsed body. */
function postOnOwnConnection(urlPath: string, token: string, { body, headers }: { body: string; headers: Record<string, string> }) {
  return new Promise<{ status: number; body: any }>((resolve, reject) => {
    const req = request(`${t.baseUrl}${urlPath}`, { method: 'POST', agent: false, headers: { ...headers, authorization: token, connection: 'close' } }, (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
    });
    // The server may answer and close before the whole body is sent.
    req.on('error', (error) => (req.destroyed ? undefined : reject(error)));
    req.end(body);
  });
}

describe('the part count of a multipart form read whole', () => {
  it('refuses a knowledge-base upload of 45,000 tiny parts with 400 naming the bound, before parsing them', async () => {
    // On a connection of its own, closed after: the client's pool would keep a socket the server answered before the body was sent.
    const res = await postOnOwnConnection(`/v3/${p.projectId}/kb`, p.owner.token, manyParts(45_000));
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'BAD_USER_INPUT', field: 'body', message: expect.stringMatching(/at most \d+ parts/) });
  });

  it('still takes a knowledge-base form of a file and its few fields', async () => {
    const form = new FormData();
    form.set('namespace', 'default');
    form.set('name', 'Not a document');
    form.set('file', new Blob(['plain'], { type: 'text/plain' }), 'a.txt');
    const res = await t.post(`/v3/${p.projectId}/kb`, { token: p.owner.token, body: form });
    // Read as a form (its parts within the bound): what follows is the route's own answer about the file.
    expect(res.body?.message ?? '').not.toMatch(/parts/);
  });
});

/** A block string whose text holds an escaped `"""` and 5,000 `]`, then a list literal nested 5,000 deep. */
const disguisedDepth = () => `{ __typename(a: """\\"""${']'.repeat(5000)} """, b: ${'['.repeat(5000)}${']'.repeat(5000)}) }`;

describe('a GraphQL document whose nesting a block string disguises', () => {
  it('answers 400 over HTTP, anonymously, naming the query, not "Unexpected error."', async () => {
    const res = await t.post('/graphql', { body: { query: disguisedDepth() } });
    expect(res.status).toBe(400);
    expect(res.body.errors[0]).toMatchObject({ message: expect.stringMatching(/^query: must not nest brackets/), extensions: { code: 'BAD_USER_INPUT' } });
  });

  it('answers the same error over graphql-ws', async () => {
    const { client } = connect(t.baseUrl, p.agent.token, { lazy: true });
    try {
      const errors = await new Promise<unknown>((resolve) => {
        client.subscribe({ query: disguisedDepth() }, { next: (result) => resolve(result.errors), error: (error) => resolve(error), complete: () => resolve(null) });
      });
      expect(JSON.stringify(errors)).toMatch(/must not nest brackets/);
    } finally {
      await client.dispose();
    }
  });
});
