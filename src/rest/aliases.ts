import type { RestAliases, RouteConfig } from './route-config.js';

// SOFA serves one route per field. An alias (an older path, another method) runs the field's own
// route handler (the route table maps it there), so both answer exactly alike.

interface RouteAlias {
  alias: RouteConfig;
  target: RouteConfig;
}

const paramNames = (path: string) => [...path.matchAll(/:(\w+)/g)].map((m) => m[1]);

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
