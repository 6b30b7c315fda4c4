import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type SeededProject, type TestApp } from './helpers/app.js';

// Input shaped to break the parser or slip past it: answered 400 naming what is wrong, never a 500.

let t: TestApp;
let p: SeededProject;
beforeAll(async () => {
  t = await createTestApp();
  p = await t.seedProject('Hostile');
});
afterAll(() => t.close());

/** `{"a":{"a":...}}` nested `depth` times, as raw JSON text. */
const nested = (depth: number) => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);

describe('deeply nested JSON', () => {
  it('answers 400 naming the argument for a REST body nested 3,000 deep', async () => {
    const res = await t.post(`/v3/${p.projectId}/tags`, {
      token: p.agent.token,
      body: `{"tag":"deep","attributes":${nested(3000)}}`,
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'BAD_USER_INPUT', field: 'attributes' });
  });

  it('answers 400 for a GraphQL variable nested 20,000 deep', async () => {
    const res = await t.post('/graphql', {
      token: p.agent.token,
      body: `{"query":"mutation($p: String!, $a: JSON) { createTag(project_id: $p, tag: \\"x\\", attributes: $a) { _id } }","variables":{"p":"${p.projectId}","a":${nested(20_000)}}}`,
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toMatch(/nest/i);
  });

  /** `createTag` with `attributes` written in the document: an object literal nested `depth` levels, or the same as a variable. */
  const literalTag = (tag: string, attributes: string) =>
    t.post('/graphql', { token: p.agent.token, body: { query: `mutation { createTag(project_id: "${p.projectId}", tag: "${tag}", attributes: ${attributes}) { _id } }` } });
  const literal = (depth: number) => '{a: '.repeat(depth) + '1' + '}'.repeat(depth);

  it('meets an object literal in the document with the same depth limit as a variable: 64 levels taken, 65 refused naming the argument', async () => {
    const asVariable = await t.post('/graphql', {
      token: p.agent.token,
      body: `{"query":"mutation($p: String!, $a: JSON) { createTag(project_id: $p, tag: \"as variable\", attributes: $a) { _id } }","variables":{"p":"${p.projectId}","a":${nested(65)}}}`,
      headers: { 'content-type': 'application/json' },
    });
    expect(asVariable.status).toBe(400);
    expect((await literalTag('deep literal 64', literal(64))).status).toBe(200);
    const refused = await literalTag('deep literal 65', literal(65));
    expect(refused.status).toBe(400);
    expect(refused.body.errors[0]).toMatchObject({ message: expect.stringMatching(/^attributes: must not nest/), extensions: { code: 'BAD_USER_INPUT', field: 'attributes' } });
    expect(await t.infra.database.prisma.tag.count({ where: { tag: 'deep literal 65' } })).toBe(0);
  });

  it('refuses a list literal nested 490 levels, and a document nested thousands deep, with a 400, never an unexpected error', async () => {
    const lists = await literalTag('deep list', '['.repeat(490) + '1' + ']'.repeat(490));
    expect(lists.status).toBe(400);
    expect(lists.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
    for (const depth of [2_000, 5_000, 50_000]) {
      const res = await literalTag('very deep', '['.repeat(depth) + ']'.repeat(depth));
      expect(res.status).toBe(400);
      expect(res.body.errors[0]).toMatchObject({ message: expect.stringMatching(/^query: must not nest brackets/), extensions: { code: 'BAD_USER_INPUT' } });
    }
  });

  it('still takes JSON nested as deep as real payloads are', async () => {
    const res = await t.post(`/v3/${p.projectId}/tags`, {
      token: p.agent.token,
      body: `{"tag":"shallow","attributes":${nested(20)}}`,
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(200);
  });
});

describe('a null JSON body', () => {
  it('answers 400 naming the body on a REST route', async () => {
    const res = await t.post(`/v3/${p.projectId}/tags`, { token: p.agent.token, body: 'null', headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'BAD_USER_INPUT', field: 'body' });
    expect(res.body.message).not.toMatch(/Cannot read properties/);
  });

  it('answers 400 naming the body on sign-in', async () => {
    const res = await t.post('/v3/auth/signin', { body: 'null', headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'BAD_USER_INPUT', field: 'body' });
  });
});

describe('credentials', () => {
  it('are not read from the query string', async () => {
    const account = await t.newUser('query');
    const query = new URLSearchParams({ email: account.email, password: account.password });
    const res = await t.post(`/v3/auth/signin?${query}`);
    expect(res.status).toBe(400);
    expect(res.body.token).toBeUndefined();
  });

  it('answer 400 for a number given as the password, not a coerced sign-in', async () => {
    const res = await t.post('/v3/auth/signin', { body: { email: 'someone@example.test', password: 12345678 } });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'BAD_USER_INPUT', field: 'password' });
  });

  it('answer 400 for a number where any REST string is expected', async () => {
    const res = await t.post(`/v3/${p.projectId}/tags`, { token: p.agent.token, body: { tag: 12345 } });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'BAD_USER_INPUT', field: 'tag' });
  });
});

describe('the OpenAPI document', () => {
  it('lists no credential as a query parameter', async () => {
    const doc = (await t.get('/v3/openapi.json')).body;
    for (const path of ['/auth/signin', '/auth/signup']) {
      const names = (doc.paths[path].post.parameters ?? []).map((param: { name: string }) => param.name);
      expect(names).not.toContain('password');
    }
  });
});

describe('introspection', () => {
  const query = '{ __schema { queryType { name } } }';

  it('answers anyone by default outside production', async () => {
    const res = await t.gql(query);
    expect(res.body.data.__schema.queryType.name).toBe('Query');
  });

  describe('in production', () => {
    let prod: TestApp;
    let visitorToken: string;
    let ownerToken: string;
    beforeAll(async () => {
      prod = await createTestApp({ NODE_ENV: 'production' });
      const seeded = await prod.seedProject('Introspection');
      visitorToken = seeded.guest.token;
      ownerToken = seeded.owner.token;
    });
    afterAll(() => prod.close());

    it('refuses callers without credentials (401)', async () => {
      const res = await prod.gql(query);
      expect(res.body.errors?.[0].extensions?.code).toBe('UNAUTHENTICATED');
      expect(res.body.data ?? null).toBeNull();
    });

    it('refuses an anonymous visitor\'s token, anyone can get one', async () => {
      const res = await prod.gql(query, {}, visitorToken);
      expect(res.body.errors?.[0].extensions?.code).toBe('UNAUTHENTICATED');
    });

    it('answers a signed-in account', async () => {
      const res = await prod.gql(query, {}, ownerToken);
      expect(res.body.data.__schema.queryType.name).toBe('Query');
    });

    it('still answers __typename to anyone', async () => {
      const res = await prod.gql('{ __typename }');
      expect(res.body.data).toEqual({ __typename: 'Query' });
    });
  });
});
