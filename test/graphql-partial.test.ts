import SchemaBuilder from '@pothos/core';
import ScopeAuthPlugin from '@pothos/plugin-scope-auth';
import { execute, parse } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import PartialResultsPlugin from '../src/graphql/partial-results.js';
import { forbidden } from '../src/errors.js';
import { sharedTestApp, type SeededProject, type TestApp } from './helpers/app.js';

// Partial results (src/graphql/partial-results.ts): a field the caller may not read answers its
// own error and null, and every other field of the operation still answers its data.

let t: TestApp;
let p: SeededProject;
beforeAll(async () => {
  t = await sharedTestApp();
  p = await t.seedProject();
});
afterAll(() => t.close());

const projectAndKeys = `query($id: String!) {
  project(project_id: $id) { name }
  apiKeys(project_id: $id) { _id }
}`;

describe('GraphQL partial results', () => {
  it('answers the allowed root field and a FORBIDDEN error at the path of the forbidden one', async () => {
    // apiKeys needs admin; project needs agent.
    const res = await t.gql(projectAndKeys, { id: p.projectId }, p.agent.token);
    expect(res.body.data).toEqual({ project: { name: 'Acme' }, apiKeys: null });
    expect(res.body.errors).toHaveLength(1);
    expect(res.body.errors![0]).toMatchObject({ path: ['apiKeys'], extensions: { code: 'FORBIDDEN' } });
  });

  it('answers every field and no errors when the caller may read them all', async () => {
    const res = await t.gql(projectAndKeys, { id: p.projectId }, p.admin.token);
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data).toEqual({ project: { name: 'Acme' }, apiKeys: [] });
  });

  it('still answers the REST route of a forbidden field with 403 and the error body', async () => {
    const res = await t.get(`/v3/${p.projectId}/api_keys`, { token: p.agent.token });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ success: false, code: 'FORBIDDEN' });
  });

  it('answers a nested field guarded by a role with null and its error, keeping its parent', async () => {
    // No module guards a nested field today; the rule is checked on a schema of its own.
    const builder = new SchemaBuilder<{ Context: { role: string }; AuthScopes: { admin: boolean } }>({
      plugins: [ScopeAuthPlugin, PartialResultsPlugin],
      scopeAuth: { authScopes: (ctx) => ({ admin: ctx.role === 'admin' }), unauthorizedError: () => forbidden() },
    });
    const Thing = builder.objectRef<{ name: string; secret: string }>('Thing').implement({
      fields: (t) => ({
        name: t.exposeString('name', { nullable: false }),
        secret: t.exposeString('secret', { nullable: false, authScopes: { admin: true } }),
      }),
    });
    builder.queryType({
      fields: (t) => ({ thing: t.field({ type: Thing, nullable: false, resolve: () => ({ name: 'a', secret: 's' }) }) }),
    });
    const schema = builder.toSchema();
    const result = await execute({ schema, document: parse('{ thing { name secret } }'), contextValue: { role: 'agent' } });
    expect(result.data).toEqual({ thing: { name: 'a', secret: null } });
    expect(result.errors).toHaveLength(1);
    expect(result.errors![0].path).toEqual(['thing', 'secret']);
    expect(result.errors![0].extensions).toMatchObject({ code: 'FORBIDDEN' });
  });
});
