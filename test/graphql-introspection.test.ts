import { readFileSync } from 'node:fs';
import { buildClientSchema, buildSchema, getIntrospectionQuery, lexicographicSortSchema, printSchema, type IntrospectionQuery } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, sharedTestApp, type TestApp } from './helpers/app.js';

// The standard introspection query (what GraphiQL, GraphQL Code Generator, Postman, Insomnia and
// Apollo tooling send) nests deeper than data queries may: introspection does not count toward
// the depth and cost limits, and whatever data stands beside or around it still does.

let t: TestApp;
beforeAll(async () => {
  t = await sharedTestApp();
});

/** The query GraphiQL sends for its docs explorer (graphql-js `getIntrospectionQuery` with its options). */
const standardQuery = getIntrospectionQuery({ descriptions: true, specifiedByUrl: true, directiveIsRepeatable: true, schemaDescription: true, inputValueDeprecation: true });

const checkedInSdl = readFileSync(new URL('../schema/schema.graphql', import.meta.url), 'utf8');
const sorted = (sdl: string) => printSchema(lexicographicSortSchema(buildSchema(sdl)));

/** `{ … on Query { … on Query { <inner> } } }`, `levels` deep: a data query as deep as one likes. */
const nested = (levels: number, inner: string) => '... on Query { '.repeat(levels) + inner + ' }'.repeat(levels);

/** A short document whose data selections double at each of 12 fragments (2^12 of them). */
const costlyFragments = `fragment F0 on Query { __typename } ${Array.from({ length: 12 }, (_, i) => `fragment F${i + 1} on Query { ...F${i} ...F${i} }`).join(' ')}`;

describe('the standard introspection query', () => {
  it('passes the depth and cost limits', async () => {
    const res = await t.gql(standardQuery);
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.__schema.queryType.name).toBe('Query');
  });

  it('gives the schema of schema/schema.graphql', async () => {
    const res = await t.gql<IntrospectionQuery>(standardQuery);
    const introspected = printSchema(lexicographicSortSchema(buildClientSchema(res.body.data!)));
    expect(introspected).toBe(sorted(checkedInSdl));
  });

  it('passes as graphql-js sends it by default', async () => {
    const res = await t.gql(getIntrospectionQuery());
    expect(res.body.errors).toBeUndefined();
  });

  it('__type with its fields and nested type references passes too', async () => {
    const res = await t.gql(`{ __type(name: "Request") { name fields { name type { kind name ofType { kind name ofType { kind name ofType { kind name ofType { kind name ofType { kind name ofType { kind name ofType { kind name ofType { kind name } } } } } } } } } } } }`);
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.__type.name).toBe('Request');
  });
});

describe('the limits of data queries', () => {
  it('still refuse a data query deeper than the depth limit', async () => {
    const res = await t.gql(`{ ${nested(16, '__typename')} }`);
    expect(res.body.errors?.[0].message).toBe('Syntax Error: Query depth limit of 15 exceeded, found 17.');
  });

  it('count a deep data query standing beside __schema', async () => {
    const res = await t.gql(`{ __schema { queryType { name } } ${nested(16, '__typename')} }`);
    expect(res.body.errors?.[0].message).toMatch(/depth limit of 15 exceeded/);
    expect(res.body.data ?? null).toBeNull();
  });

  it('count the data levels around __schema', async () => {
    const res = await t.gql(`{ ${nested(16, '__schema { queryType { name } }')} }`);
    expect(res.body.errors?.[0].message).toMatch(/depth limit of 15 exceeded/);
  });

  it('still refuse a costly data query standing beside __schema', async () => {
    const res = await t.gql(`{ __schema { queryType { name } } ...F12 } ${costlyFragments}`);
    expect(res.body.errors?.[0].message).toMatch(/Cost limit of 5000 exceeded/);
  });

  it('answer a data query within them', async () => {
    const res = await t.gql(`{ ${nested(10, '__typename')} }`);
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data).toEqual({ __typename: 'Query' });
  });
});

describe('introspection itself', () => {
  it('stays bounded: cycles through fields and types are refused', async () => {
    const res = await t.gql('{ __schema { types { fields { type { fields { type { fields { type { fields { name } } } } } } } } } }');
    expect(res.body.errors?.[0].message).toMatch(/introspection depth/i);
  });
});

describe('in production', () => {
  let prod: TestApp;
  let token: string;
  beforeAll(async () => {
    prod = await createTestApp({ NODE_ENV: 'production' });
    token = (await prod.newUser('introspector')).token;
  });
  afterAll(() => prod?.close());

  it('a signed-in account gets the whole schema from the standard query', async () => {
    const res = await prod.gql<IntrospectionQuery>(standardQuery, {}, token);
    expect(res.body.errors).toBeUndefined();
    expect(printSchema(lexicographicSortSchema(buildClientSchema(res.body.data!)))).toBe(sorted(checkedInSdl));
  });

  it('a caller without credentials is still refused', async () => {
    const res = await prod.gql(standardQuery);
    expect(res.body.errors?.[0].extensions?.code).toBe('UNAUTHENTICATED');
  });
});
