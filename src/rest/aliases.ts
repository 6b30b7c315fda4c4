import type { RestAliases, RouteConfig } from '../graphql/record.js';

// SOFA serves one route per field. An alias (an older path, another method) runs the field's own
// route handler (the route table maps it there), so both answer exactly alike.

interface AliasRouter {
  openAPIDocument?: { paths?: Record<string, Record<string, { operationId?: string } & Record<string, unknown>>> };
}

interface RouteAlias {
  alias: RouteConfig;
  target: RouteConfig;
}

const paramNames = (path: string) => [...path.matchAll(/:(\w+)/g)].map((m) => m[1]);
const openApiPath = (path: string) => path.replace(/:(\w+)/g, '{$1}');

/** Each alias with the route it stands for. */
export function aliasRoutes(routes: Record<string, RouteConfig>, aliases: RestAliases): RouteAlias[] {
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

/** Adds every alias to the OpenAPI document beside its target (the route table serves them: `aliasRoutes`). */
export function documentRouteAliases(router: AliasRouter, basePath: string, routes: Record<string, RouteConfig>, aliases: RestAliases) {
  const paths = router.openAPIDocument?.paths;
  const counts = new Map<RouteConfig, number>();
  for (const { alias, target } of aliasRoutes(routes, aliases)) {
    counts.set(target, (counts.get(target) ?? 0) + 1);
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
