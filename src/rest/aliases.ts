import type { RestAliases, RouteConfig } from '../graphql/record.js';

// SOFA serves one route per field. An alias (an older path, another method) is served by
// re-dispatching the request to the field's route, so both answer exactly alike.

interface AliasRouter {
  route(route: { method: string; path: string; handler: (request: Request, context: object) => unknown }): unknown;
  handleRequest(request: Request, context: object): Promise<Response | undefined> | Response | undefined;
  openAPIDocument?: { paths?: Record<string, Record<string, { operationId?: string } & Record<string, unknown>>> };
}

interface RouteAlias {
  alias: RouteConfig;
  target: RouteConfig;
}

const paramNames = (path: string) => [...path.matchAll(/:(\w+)/g)].map((m) => m[1]);
const openApiPath = (path: string) => path.replace(/:(\w+)/g, '{$1}');

function aliasesOf(routes: Record<string, RouteConfig>, aliases: RestAliases): RouteAlias[] {
  return Object.entries(aliases).flatMap(([field, list]) => {
    const target = routes[field];
    if (!target) throw new Error(`REST aliases for ${field}, which has no route`);
    return list.map((alias) => {
      const missing = paramNames(target.path).filter((p) => !paramNames(alias.path).includes(p));
      if (missing.length) throw new Error(`REST alias ${alias.method} ${alias.path} of ${field} lacks :${missing.join(', :')}`);
      return { alias, target };
    });
  });
}

/** Each alias with the route it stands for. */
export function aliasRoutes(routes: Record<string, RouteConfig>, aliases: RestAliases): RouteAlias[] {
  return aliasesOf(routes, aliases);
}

/** The request as it would have reached the target route: same parameters, query string and body. */
function redirected(request: Request & { params?: Record<string, string> }, basePath: string, target: RouteConfig) {
  const url = new URL(request.url);
  url.pathname = basePath + target.path.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(request.params?.[name] ?? ''));
  return new Request(url, {
    method: target.method,
    headers: request.headers,
    body: request.body,
    signal: request.signal,
    duplex: 'half',
  } as RequestInit);
}

/** Adds every alias to the router, after SOFA's routes, and to the OpenAPI document beside its target. */
export function addRouteAliases(router: AliasRouter, basePath: string, routes: Record<string, RouteConfig>, aliases: RestAliases) {
  const paths = router.openAPIDocument?.paths;
  const counts = new Map<RouteConfig, number>();
  for (const { alias, target } of aliasesOf(routes, aliases)) {
    counts.set(target, (counts.get(target) ?? 0) + 1);
    router.route({
      method: alias.method,
      path: alias.path,
      handler: (request, context) => router.handleRequest(redirected(request, basePath, target), context),
    });
    const operation = paths?.[openApiPath(target.path)]?.[target.method.toLowerCase()];
    if (paths && operation) {
      const aliasPath = (paths[openApiPath(alias.path)] ??= {});
      aliasPath[alias.method.toLowerCase()] = {
        ...operation,
        operationId: `${operation.operationId}_alias${counts.get(target)}`,
        description: `Alias of ${target.method} ${basePath}${target.path}.`,
      };
    }
  }
}
