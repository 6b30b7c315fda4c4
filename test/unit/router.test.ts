import { describe, expect, it } from 'vitest';
import { restOptions, restRoutes, schema } from '../../src/graphql/schema.js';
import { aliasRoutes } from '../../src/rest/aliases.js';
import { restBasePath } from '../../src/rest/base-path.js';
import type { HandRoute } from '../../src/rest/hand-route.js';
import { createRestApi, generatedRoutes } from '../../src/rest/plugin.js';
import { RouteTable, type TableRoute } from '../../src/rest/router.js';

// The /v3 route table (src/rest/router.ts) on its own: which route a method and path reach, with
// what parameters, and which methods a path answers (null: the lane answers 404; a list: 405 with
// Allow, or 204 to OPTIONS). Then the table the app builds from its modules' routes, without a server.

const handler = () => undefined;
const route = (method: string, path: string): TableRoute => ({ method, path, generated: { handler } });
const table = (...routes: TableRoute[]) => new RouteTable(routes, '/v3');

describe('matching a path', () => {
  it('matches a path without parameters exactly, under the base', () => {
    const projects = route('GET', '/projects');
    expect(table(projects).match('GET', '/v3/projects')).toEqual({ route: projects, params: {} });
    expect(table(projects).match('GET', '/projects')).toBeNull();
    expect(table(projects).match('GET', '/v3/projects/x')).toBeNull();
  });

  it('serves the path / at the base itself', () => {
    const root = route('GET', '/');
    expect(table(root).match('GET', '/v3')).toEqual({ route: root, params: {} });
    expect(table(root).match('GET', '/v3/')).toBeNull();
  });

  it('matches only the method a route is declared for', () => {
    const t = table(route('GET', '/projects'), route('POST', '/:project_id/requests'));
    expect(t.match('DELETE', '/v3/projects')).toBeNull();
    expect(t.match('GET', '/v3/p1/requests')).toBeNull();
    expect(t.match('HEAD', '/v3/projects')).toBeNull();
  });

  it('names each parameter and decodes it', () => {
    const message = route('GET', '/:project_id/requests/:request_id/messages');
    expect(table(message).match('GET', '/v3/p1/requests/support%2Fgroup%20a/messages')).toEqual({
      route: message,
      params: { project_id: 'p1', request_id: 'support/group a' },
    });
  });

  it('lets a parameter span one segment only, never an empty one', () => {
    const t = table(route('GET', '/:project_id/leads/:id'));
    expect(t.match('GET', '/v3/p1/leads/a/b')).toBeNull();
    expect(t.match('GET', '/v3/p1/leads')).toBeNull();
    expect(t.match('GET', '/v3/p1/leads/')).toBeNull();
    expect(t.match('GET', '/v3//leads/l1')).toBeNull();
  });

  it('finds no route for a parameter that is not valid percent-encoding (the lane answers 404, not 500)', () => {
    expect(table(route('GET', '/:project_id/leads/:id')).match('GET', '/v3/p1/leads/%E0%A4%A')).toBeNull();
  });

  it('reads the literal segments of a pattern literally (no regular expression in them)', () => {
    const t = table(route('GET', '/:project_id/files/a.b+c'));
    expect(t.match('GET', '/v3/p1/files/a.b+c')).not.toBeNull();
    expect(t.match('GET', '/v3/p1/files/aXbbc')).toBeNull();
  });
});

describe('precedence', () => {
  it('prefers a path without parameters to a pattern, whichever is declared first', () => {
    const byId = route('GET', '/projects/:project_id');
    const mine = route('GET', '/projects/mine');
    for (const t of [table(byId, mine), table(mine, byId)]) {
      expect(t.match('GET', '/v3/projects/mine')?.route).toBe(mine);
      expect(t.match('GET', '/v3/projects/p1')?.route).toBe(byId);
    }
  });

  it('takes the pattern with a fixed segment where two patterns match a path, declared first or not', () => {
    const byLang = route('GET', '/:project_id/labels/:lang');
    const byDefault = route('GET', '/:project_id/labels/default');
    expect(table(byDefault, byLang).match('GET', '/v3/p1/labels/default')).toEqual({ route: byDefault, params: { project_id: 'p1' } });
    expect(table(byLang, byDefault).match('GET', '/v3/p1/labels/default')).toEqual({ route: byDefault, params: { project_id: 'p1' } });
    expect(table(byLang, byDefault).match('GET', '/v3/p1/labels/fr')).toEqual({ route: byLang, params: { project_id: 'p1', lang: 'fr' } });
  });

  it('keeps patterns of different lengths apart', () => {
    const short = route('GET', '/:project_id/bots/:id');
    const long = route('GET', '/:project_id/bots/:id/jwt');
    const t = table(short, long);
    expect(t.match('GET', '/v3/p1/bots/b1')?.route).toBe(short);
    expect(t.match('GET', '/v3/p1/bots/b1/jwt')?.route).toBe(long);
  });

  it('joins a generated route and a route written by hand on the same method and path into one entry', () => {
    const hand = { method: 'POST', path: '/:project_id/files', body: 'multipart' } as unknown as HandRoute;
    const generated = route('POST', '/:project_id/files');
    const found = table(generated, { method: 'POST', path: '/:project_id/files', hand }).match('POST', '/v3/p1/files');
    expect(found?.route.generated).toBe(generated.generated);
    expect(found?.route.hand).toBe(hand);
  });

  it('keeps the first of each kind when one is declared twice', () => {
    const first = route('GET', '/projects');
    const second = route('GET', '/projects');
    expect(table(first, second).match('GET', '/v3/projects')?.route.generated).toBe(first.generated);
    const firstPattern = route('GET', '/:project_id/leads');
    expect(table(firstPattern, route('GET', '/:project_id/leads')).match('GET', '/v3/p1/leads')?.route.generated).toBe(firstPattern.generated);
  });
});

describe('the methods a path answers (404 or 405)', () => {
  const t = table(
    route('GET', '/:project_id/leads/:id'),
    route('PUT', '/:project_id/leads/:id'),
    route('DELETE', '/:project_id/leads/:id'),
    route('POST', '/:project_id/leads'),
    route('GET', '/projects'),
  );

  it('lists the methods of every route matching the path, HEAD with GET, and OPTIONS', () => {
    expect(t.allowedMethods('/v3/p1/leads/l1')).toEqual(['GET', 'PUT', 'DELETE', 'HEAD', 'OPTIONS']);
    expect(t.allowedMethods('/v3/projects')).toEqual(['GET', 'HEAD', 'OPTIONS']);
  });

  it('lists no HEAD where there is no GET', () => {
    expect(t.allowedMethods('/v3/p1/leads')).toEqual(['POST', 'OPTIONS']);
  });

  it('answers null for a path no route matches, under any method', () => {
    expect(t.allowedMethods('/v3/p1/leads/l1/notes')).toBeNull();
    expect(t.allowedMethods('/v3/nothing')).toBeNull();
    expect(t.allowedMethods('/v3/p1/leads/%E0%A4%A')).toBeNull();
  });
});

describe('the table the app builds from its modules', () => {
  // The table as the REST plugin builds it when yoga hands it the schema (no server, no request).
  const api = createRestApi(restOptions);
  (api.plugin.onSchemaChange as (payload: unknown) => void)({ schema, replaceSchema: () => {} });
  const declared = [
    ...Object.values(restRoutes).map(({ method, path }) => ({ method, path })),
    ...aliasRoutes(generatedRoutes(restRoutes), restOptions.aliases).map(({ alias }) => alias),
  ];
  const filled = (path: string) => `${restBasePath}${path.replace(/:\w+/g, 'zz9')}`;

  it('serves every declared route and alias at its own path: none is shadowed by another', () => {
    expect(declared.length).toBeGreaterThan(150);
    const shadowed = declared
      .map(({ method, path }) => ({ method, path, found: api.match(method, filled(path))?.route.path }))
      .filter(({ path, found }) => found !== path);
    expect(shadowed).toEqual([]);
  });

  it('prefers a literal segment to a parameter where routes overlap', () => {
    expect(api.match('GET', '/v3/p1/labels/default')?.route.path).toBe('/:project_id/labels/default');
    expect(api.match('GET', '/v3/p1/labels/fr')).toMatchObject({ route: { path: '/:project_id/labels/:lang' }, params: { lang: 'fr' } });
    expect(api.match('GET', '/v3/p1/departments/allstatus')?.route.path).toBe('/:project_id/departments/allstatus');
  });

  it('answers the methods a route path has, and null past the table', () => {
    expect(api.allowedMethods('/v3/p1/departments/d1')).toEqual(['GET', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS']);
    expect(api.allowedMethods('/v3/p1/no-such-resource/x/y')).toBeNull();
  });
});
