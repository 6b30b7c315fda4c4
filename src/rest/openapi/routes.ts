import { isNonNullType, isObjectType, type GraphQLField, type GraphQLSchema } from 'graphql';
import type { RestAliases, RestRoutes, RouteConfig } from '../route-config.js';

// Every generated route the REST face answers: the configured ones, SOFA's default route of a
// field with none (sofa-api's getPath), and the aliases, each with the field it runs.

export interface DocumentedRoute {
  /** `Query.field` or `Mutation.field`. */
  key: string;
  field: GraphQLField<unknown, unknown>;
  kind: 'query' | 'mutation';
  method: RouteConfig['method'];
  /** The path under /v3 with `:name` parameters. */
  path: string;
  config?: RouteConfig;
  /** For an alias: the route it stands for. */
  aliasOf?: { method: string; path: string; index: number };
}

/** sofa-api's route name of a field: `teammateByUser` → `teammate-by-user`. */
const paramCase = (name: string) => name.replace(/([a-z0-9])([A-Z])/g, '$1-$2').toLowerCase();

function defaultRoute(kind: 'query' | 'mutation', field: GraphQLField<unknown, unknown>): Pick<RouteConfig, 'method' | 'path'> {
  const single = isObjectType(field.type) || (isNonNullType(field.type) && isObjectType(field.type.ofType));
  const hasId = kind === 'query' && single && field.args.some((a) => a.name === 'id');
  return { method: kind === 'query' ? 'GET' : 'POST', path: `/${paramCase(field.name)}${hasId ? '/:id' : ''}` };
}

export function documentedRoutes(schema: GraphQLSchema, routes: RestRoutes, aliases: RestAliases = {}): DocumentedRoute[] {
  const result: DocumentedRoute[] = [];
  for (const [kind, type] of [['query', schema.getQueryType()], ['mutation', schema.getMutationType()]] as const) {
    for (const field of Object.values(type?.getFields() ?? {})) {
      const key = `${type!.name}.${field.name}`;
      // Fields' routes only: a route written by hand has a `Route.` key.
      const config = routes[key] as RouteConfig | undefined;
      const { method, path } = config ?? defaultRoute(kind, field);
      const route = { key, field, kind, method, path, config };
      result.push(route);
      (aliases[key] ?? []).forEach((alias, i) =>
        result.push({ ...route, method: alias.method, path: alias.path, aliasOf: { method, path, index: i + 1 } }),
      );
    }
  }
  return result;
}

/** `/:project_id/x` as OpenAPI writes it: `/{project_id}/x`. */
export const openApiPath = (path: string) => path.replace(/:(\w+)/g, '{$1}');

export const pathParameters = (path: string) => [...path.matchAll(/:(\w+)/g)].map((m) => m[1]);
