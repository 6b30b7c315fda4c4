import { readFileSync } from 'node:fs';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { restOptions, schema } from '../src/graphql/schema.js';
import { createRestHandler, restBasePath } from '../src/rest/plugin.js';
import { aliasRoutes } from '../src/rest/aliases.js';
import { documentationTag } from '../src/rest/openapi/tags.js';
import { apiTagsOf } from '../src/module.js';
import { platformModules } from '../src/modules.js';
import { sharedTestApp, type TestApp } from './helpers/app.js';
import { assertMatchesDocument } from './helpers/openapi-validator.js';

// The checked-in document (schema/openapi.json, what generators read) is valid, lints clean and
// describes the routes as they are served.

const text = readFileSync(new URL('../schema/openapi.json', import.meta.url), 'utf8');
const document = JSON.parse(text) as Record<string, any>;
const methods = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'];
const operations = Object.entries(document.paths as Record<string, Record<string, any>>).flatMap(([path, item]) =>
  Object.entries(item)
    .filter(([method]) => methods.includes(method))
    .map(([method, operation]) => ({ path, method, operation })),
);
const openApiPath = (path: string) => path.replace(/:(\w+)/g, '{$1}');

describe('the OpenAPI document', () => {
  it('has no errors under Redocly recommended rules, and only the warnings the README explains', async () => {
    const config = await createConfig({ extends: ['recommended'] });
    const problems = await lintFromString({ source: text, absoluteRef: 'openapi.json', config });
    expect(problems.filter((p) => p.severity === 'error').map((p) => `${p.ruleId}: ${p.message}`)).toEqual([]);
    // Paths that start with the project's id (`/{project_id}/bots`) read as ambiguous beside
    // `/projects/{project_id}`; the server matches literal segments first. No license: a private server.
    expect([...new Set(problems.map((p) => p.ruleId))].sort()).toEqual(['info-license', 'no-ambiguous-paths']);
  });

  it('is OpenAPI 3.1 with the JSON scalar and the error body defined', () => {
    expect(document.openapi).toBe('3.1.0');
    expect(document.components.schemas.JSON).toBeDefined();
    expect(document.components.schemas.Error.required).toEqual(['success', 'code', 'message', 'request_id']);
    const refs = [...text.matchAll(/"\$ref": "#\/components\/(\w+)\/(\w+)"/g)];
    for (const [, kind, name] of refs) expect(document.components[kind]?.[name], `${kind}/${name}`).toBeDefined();
  });

  it('documents every generated route, alias and hand-written route the server answers', () => {
    const handler = createRestHandler(schema, restOptions) as unknown as { __routes: Array<{ method: string; path: string }> };
    const served = [
      // SOFA's own subscription webhooks (`/webhook`, `/webhook/:id`) are not served; `/webhooks/events` is ours.
      ...handler.__routes.filter((r) => !/^\/webhook(\/|$)/.test(r.path)),
      ...aliasRoutes(restOptions.routes, restOptions.aliases).map(({ alias }) => alias),
      ...['POST /files/users', 'POST /images/users', 'GET /files', 'GET /files/download', 'GET /images', 'DELETE /files', 'POST /:project_id/files', 'GET /:project_id/analytics/conversations.csv']
        .map((r) => r.split(' '))
        .map(([method, path]) => ({ method, path })),
      { method: 'GET', path: '/openapi.json' },
      { method: 'GET', path: '/docs' },
    ];
    const missing = served.filter((r) => !document.paths[openApiPath(r.path)]?.[r.method.toLowerCase()]).map((r) => `${r.method} ${r.path}`);
    expect(missing).toEqual([]);
    expect(operations.length).toBe(served.length + 4); // and the docs page's four assets
  });

  it('gives every operation one resource tag, a summary, an id and its 4xx error responses', () => {
    // A new resource's tag is listed, with a description, in its module.ts.
    const tags = new Set([...apiTagsOf(platformModules), documentationTag].map((t) => t.name));
    for (const { path, method, operation } of operations) {
      const where = `${method} ${path}`;
      expect(operation.tags, where).toHaveLength(1);
      expect(tags.has(operation.tags[0]), where).toBe(true);
      expect(operation.summary, where).toMatch(/\w/);
      expect(operation.operationId, where).toMatch(/^\w+$/);
      for (const status of ['400', '401', '403', '404', '429']) expect(operation.responses[status], `${where} ${status}`).toBeDefined();
    }
  });

  it('declares the credentials the server accepts: JWT, Bearer, Basic and bot tokens', () => {
    expect(Object.keys(document.components.securitySchemes).sort()).toEqual(['basic', 'bearer', 'botToken', 'jwt']);
    expect(document.components.securitySchemes.jwt).toMatchObject({ type: 'apiKey', in: 'header', name: 'Authorization' });
    const signin = document.paths['/auth/signin'].post;
    expect(signin.security).toContainEqual({});
  });

  it('names revisions `__v` and types date-times as strings', () => {
    expect(text).not.toMatch(/"revision"/);
    const department = document.components.schemas.Department;
    expect(department.required).toContain('__v');
    expect(department.properties.createdAt).toEqual({ type: 'string', format: 'date-time' });
  });

  // The spec sends these in the query string of a POST; the server reads them there or in the body.
  const specQuery: Record<string, string[]> = {
    'post /{project_id}/bots/fork/{id}': ['projectid', 'public'],
    'put /{project_id}/bots/fork/{id}': ['projectid', 'public'],
    'post /{project_id}/faq_kb/fork/{id}': ['projectid', 'public'],
    'put /{project_id}/faq_kb/fork/{id}': ['projectid', 'public'],
    'post /{project_id}/bots/importjson/{id}': ['create', 'overwrite', 'replace'],
    'post /{project_id}/faq_kb/importjson/{id}': ['create', 'overwrite', 'replace'],
    'post /{project_id}/kb/multi': ['namespace'],
  };

  it('takes project_id from the path only, and repeats a body field as a query parameter only where the spec sends it so', () => {
    for (const { path, method, operation } of operations) {
      const body = operation.requestBody?.content?.['application/json']?.schema;
      const bodyFields = Object.keys(body?.properties ?? body?.anyOf?.[0]?.properties ?? {});
      if (path.includes('{project_id}')) expect(bodyFields, `${method} ${path}`).not.toContain('project_id');
      const query = (operation.parameters ?? []).filter((p: { in: string }) => p.in === 'query').map((p: { name: string }) => p.name);
      const expected = specQuery[`${method} ${path}`] ?? [];
      expect(query.filter((name: string) => bodyFields.includes(name)).sort(), `${method} ${path}`).toEqual(expected);
      if (body) expect(query.sort(), `${method} ${path}`).toEqual(expected);
    }
  });

  it('declares the spec\'s query parameters of fork, importjson and kb/multi with their types, and hasBot as a boolean', () => {
    const queryOf = (method: string, path: string) =>
      Object.fromEntries((document.paths[path][method].parameters ?? []).filter((p: any) => p.in === 'query').map((p: any) => [p.name, [p.schema.type].flat()[0]]));
    expect(queryOf('post', '/{project_id}/bots/fork/{id}')).toEqual({ public: 'boolean', projectid: 'string' });
    expect(queryOf('post', '/{project_id}/bots/importjson/{id}')).toEqual({ create: 'boolean', replace: 'boolean', overwrite: 'boolean' });
    expect(queryOf('post', '/{project_id}/kb/multi')).toEqual({ namespace: 'string' });
    expect(queryOf('get', '/{project_id}/requests').hasBot).toBe('boolean');
  });

  it('keeps credentials out of the URL: sign-in reads them from the body', () => {
    const signin = document.paths['/auth/signin'].post;
    expect(signin.parameters ?? []).toEqual([]);
    expect(Object.keys(signin.requestBody.content['application/json'].schema.properties).sort()).toEqual(['email', 'password']);
  });
});

describe('the document as served', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await sharedTestApp();
  });
  afterAll(() => app.close());

  it('is the checked-in document', async () => {
    const served = await app.get(`${restBasePath}/openapi.json`);
    expect(served.status).toBe(200);
    expect(served.body).toEqual(document);
  });

  it('fails a test whose response differs from it', () => {
    const body = { _id: 'x', id: 'x', name: 'Sales', __v: 0, revision: 0 };
    expect(() => assertMatchesDocument({ method: 'GET', path: '/v3/p1/departments/d1', status: 200, contentType: 'application/json', body })).toThrow(
      /does not match the document/,
    );
    expect(() => assertMatchesDocument({ method: 'GET', path: '/v3/p1/departments/d1', status: 201, contentType: 'application/json', body })).toThrow(
      /201 is not documented/,
    );
    expect(() => assertMatchesDocument({ method: 'GET', path: '/v3/nowhere', status: 200, contentType: 'application/json', body: {} })).toThrow(
      /not documented/,
    );
  });
});
