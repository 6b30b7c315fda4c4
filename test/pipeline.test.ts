import { isNonNullType } from 'graphql';
import { auditServer } from 'graphql-http';
import { RequestCache } from '@pothos/plugin-scope-auth';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { builder } from '../src/graphql/builder.js';
import { renderSchemaFiles, sdlPath, openApiPath } from '../src/cli/schema.js';
import { restRoutes, schema } from '../src/graphql/schema.js';
import { readFile } from 'node:fs/promises';
import { createTestApp, type SeededProject, type TestApp } from './helpers/app.js';

let t: TestApp;
let p: SeededProject;
beforeAll(async () => {
  t = await createTestApp({ BODY_LIMIT_BYTES: '2048', GRAPHQL_MAX_DEPTH: '8' });
  p = await t.seedProject();
});
afterAll(() => t.close());

describe('REST conventions', () => {
  it('answers 404 with the error body for an unknown route', async () => {
    const res = await t.get('/v3/no/such/route/here', { token: p.owner.token });
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ success: false, code: 'NOT_FOUND' });
  });

  it('does not serve SOFA\'s subscription webhook routes', async () => {
    const res = await t.post('/v3/webhook', { body: { subscription: 'x', url: 'http://169.254.169.254/' } });
    expect(res.status).toBe(404);
  });

  it('answers 413 for a body over the limit', async () => {
    const res = await t.post('/v3/projects', { token: p.owner.token, body: { name: 'x'.repeat(5000) } });
    expect(res.status).toBe(413);
    expect(res.body.code).toBe('PAYLOAD_TOO_LARGE');
  });

  /** POSTs `value` as JSON in a chunked body, with no declared length. */
  const postChunked = (path: string, value: unknown) => {
    const chunks = [JSON.stringify(value)];
    return fetch(`${t.baseUrl}${path}`, {
      method: 'POST',
      headers: { authorization: p.owner.token, 'content-type': 'application/json' },
      body: new ReadableStream({ pull: (c) => (chunks.length ? c.enqueue(new TextEncoder().encode(chunks.shift())) : c.close()) }),
      duplex: 'half',
    } as RequestInit);
  };

  it('answers 413 for a chunked body over the limit that declares no length', async () => {
    const res = await postChunked('/v3/projects', { name: 'x'.repeat(5000) });
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
  });

  it('answers 413 for a chunked body over the limit on a route yoga answers itself', async () => {
    const res = await postChunked(`/v3/${p.projectId}/requests/support-group-chunked/messages/multi`, [{ text: 'x'.repeat(5000) }]);
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
  });

  it('answers 400 naming the problem for a body that is not JSON', async () => {
    const res = await t.put(`/v3/projects/${p.projectId}`, {
      token: p.owner.token,
      body: '{"name": ',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, code: 'BAD_USER_INPUT' });
  });

  it('renames the revision counter to __v in REST and keeps _id and id equal', async () => {
    const res = await t.get(`/v3/projects/${p.projectId}`, { token: p.owner.token });
    expect(res.body).toHaveProperty('__v');
    expect(res.body).not.toHaveProperty('revision');
    expect(res.body._id).toBe(res.body.id);
  });

  it('accepts a trailing slash on any route', async () => {
    expect((await t.get(`/v3/${p.projectId}/project_users/`, { token: p.agent.token })).status).toBe(200);
  });

  it('never answers a stack trace', async () => {
    const res = await t.put(`/v3/projects/${p.projectId}`, { token: p.owner.token, body: { settings: 'not an object' } });
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).not.toMatch(/at .*\.ts:\d+/);
  });

  it('gives every Query and Mutation field an explicit REST route', () => {
    // teammateByUser: REST has the array form the SDK reads (teammatesByUser) at its path.
    const graphqlOnly = new Set(['Query.me', 'Query.teammateByUser']);
    const fields = [
      ...Object.keys(schema.getQueryType()!.getFields()).map((f) => `Query.${f}`),
      ...Object.keys(schema.getMutationType()!.getFields()).map((f) => `Mutation.${f}`),
    ];
    const missing = fields.filter((f) => !(f in restRoutes) && !graphqlOnly.has(f));
    expect(missing).toEqual([]);
  });
});

describe('NUL characters (PostgreSQL stores none)', () => {
  const requestId = `support-group-nul-${Date.now()}`;

  it('answers 400 naming the field for a body string holding one', async () => {
    const res = await t.post(`/v3/${p.projectId}/requests/${requestId}/messages`, { token: p.guest.token, body: { text: 'a\u0000b' } });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, code: 'BAD_USER_INPUT', field: 'text' });
  });

  it('answers 400 naming the path for a JSON attribute key or value holding one', async () => {
    const value = await t.post(`/v3/${p.projectId}/leads`, { token: p.admin.token, body: { fullname: 'Nul', attributes: { deep: ['ok', 'x\u0000'] } } });
    expect(value.status).toBe(400);
    expect(value.body.field).toBe('attributes.deep.1');
    const key = await t.post(`/v3/${p.projectId}/leads`, { token: p.admin.token, body: { fullname: 'Nul', attributes: { 'k\u0000': 1 } } });
    expect(key.status).toBe(400);
    expect(key.body.field).toBe('attributes.k\u0000');
  });

  it('answers 400 for a GraphQL string literal holding one', async () => {
    const res = await t.request('POST', '/graphql', {
      token: p.owner.token,
      body: { query: `mutation { createTag(project_id: "${p.projectId}", tag: "nul", attributes: { note: "a\\u0000b" }) { tag } }` },
    });
    expect(res.status).toBe(400);
    expect(res.body.errors[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'attributes.note' });
  });
});

describe('per-operation caches', () => {
  // Pothos keeps them in a WeakMap keyed by the context; left there, every operation's objects
  // outlived V8's minor collections (see src/graphql/release.ts).
  it.each([
    ['REST', () => t.get(`/v3/${p.projectId}/leads`, { token: p.owner.token })],
    ['GraphQL', () => t.request('POST', '/graphql', { token: p.owner.token, body: { query: `{ leads(project_id: "${p.projectId}") { count } }` } })],
  ])('drops the authorization cache of a %s operation once it is answered', async (_face, call) => {
    const original = RequestCache.fromContext.bind(RequestCache);
    const used = new Map<Parameters<typeof original>[0], RequestCache<any>>();
    const spy = vi.spyOn(RequestCache, 'fromContext').mockImplementation((context, b) => {
      const cache = original(context, b);
      used.set(context, cache);
      return cache;
    });
    try {
      expect((await call()).status).toBe(200);
    } finally {
      spy.mockRestore();
    }
    expect(used.size).toBeGreaterThan(0);
    // Asked again for the same context, Pothos has none kept: it makes a new one.
    for (const [context, cache] of used) expect(original(context as never, builder)).not.toBe(cache);
  });
});

describe('OpenAPI', () => {
  it('is served at /v3/openapi.json', async () => {
    const res = await t.get('/v3/openapi.json');
    expect(res.status).toBe(200);
    expect(res.body.servers).toEqual([expect.objectContaining({ url: '/v3' })]);
    expect(Object.keys(res.body.paths)).toContain('/projects/{project_id}');
  });

  it('has a docs page', async () => {
    const res = await t.get('/v3/docs');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/html/);
  });

  it('schema/schema.graphql and schema/openapi.json are up to date (npm run schema:print)', async () => {
    const { sdl, openapi } = await renderSchemaFiles();
    expect(await readFile(sdlPath, 'utf8')).toBe(sdl);
    expect(await readFile(openApiPath, 'utf8')).toBe(openapi);
  });
});

describe('GraphQL endpoint', () => {
  it('passes the graphql-http server audit with no MUST failure', async () => {
    // Over real HTTP, through the listener `npm start` serves: the GraphQL lane and yoga behind it.
    const results = await auditServer({ url: `${t.baseUrl}/graphql` });
    const failures = results.filter((r) => r.status === 'error' && r.name.startsWith('MUST'));
    expect(failures.map((f) => f.name)).toEqual([]);
  });

  it('answers application/graphql-response+json when the client asks for it', async () => {
    const res = await t.request('POST', '/graphql', {
      token: p.owner.token,
      headers: { accept: 'application/graphql-response+json' },
      body: { query: 'query($id: String!) { project(project_id: $id) { name } }', variables: { id: p.projectId } },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/graphql-response\+json/);
    expect(res.body.data.project.name).toBe('Acme');
  });

  it('answers a document that does not validate with 400 and the errors when asked for graphql-response+json', async () => {
    const res = await t.request('POST', '/graphql', {
      token: p.owner.token,
      headers: { accept: 'application/graphql-response+json' },
      body: { query: '{ noSuchField }' },
    });
    expect(res.status).toBe(400);
    expect(res.body.errors?.[0].message).toMatch(/noSuchField/);
  });

  it('refuses a request with a parameter GraphQL over HTTP does not define, naming it', async () => {
    const res = await t.request('POST', '/graphql', {
      token: p.owner.token,
      headers: { accept: 'application/graphql-response+json' },
      body: { query: '{ me { _id } }', unexpected: 1 },
    });
    expect(res.status).toBe(400);
    expect(res.body.errors?.[0].message).toMatch(/unexpected/);
  });

  it('answers the error family in GraphQL errors with the HTTP status of the error', async () => {
    const res = await t.gql('query($id: String!) { project(project_id: $id) { name } }', { id: p.projectId });
    expect(res.status).toBe(401);
    expect(res.body.errors?.[0].extensions).toMatchObject({ code: 'UNAUTHENTICATED' });
    // Root query fields are nullable (partial results): the refused field alone is null.
    expect(res.body.data).toEqual({ project: null });
  });

  it('refuses a query deeper than the limit', async () => {
    const ok = await t.gql('{ projects { id_project { name } } }', {}, p.owner.token);
    expect(ok.body.errors).toBeUndefined();
    // Each inline fragment is a level (the data types themselves nest about 5 deep).
    const tooDeep = `{ ${'... on Query { '.repeat(9)}__typename${' }'.repeat(9)} }`;
    const res = await t.gql(tooDeep, {}, p.owner.token);
    expect(res.body.errors?.[0].message).toMatch(/depth/i);
  });

  it('refuses too many aliases', async () => {
    const aliases = Array.from({ length: 40 }, (_, i) => `a${i}: me { _id }`).join(' ');
    const res = await t.gql(`{ ${aliases} }`, {}, p.owner.token);
    expect(res.body.errors?.[0].message).toMatch(/alias/i);
  });

  it('reports errors with a stable code in extensions', async () => {
    const res = await t.gql('{ projects { _id } }');
    expect(res.body.errors![0].extensions!.code).toBe('UNAUTHENTICATED');
  });

  it('declares path arguments as required', () => {
    const field = schema.getQueryType()!.getFields().project;
    expect(isNonNullType(field.args.find((a) => a.name === 'project_id')!.type)).toBe(true);
  });
});

describe('health', () => {
  it('GET /health answers 200', async () => {
    expect((await t.get('/health')).status).toBe(200);
  });

  it('GET /ready answers 200 when the database answers', async () => {
    const res = await t.get('/ready');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ready' });
  });
});
