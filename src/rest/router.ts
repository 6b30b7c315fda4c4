import type { RouteConfig } from './route-config.js';
import type { HandRoute } from './hand-route.js';

// The route table of /v3, compiled once: exact paths in a map, parameterised paths as regular
// expressions grouped by method and segment count. SOFA's own router tries every pattern in turn
// through a URLPattern polyfill, which dominated the cost of a REST call.

type Handler = (request: Request, serverContext: object) => Promise<Response | undefined> | Response | undefined;

/** A route SOFA made (its handler and the module's config of it). */
export interface RouteEntry {
  method: string;
  path: string;
  handler: Handler;
}

/** What answers one method and path: a generated route, a route written by hand, or both (JSON and multipart bodies). */
export interface TableRoute {
  method: string;
  /** The path under the base, with `:name` parameters. */
  path: string;
  generated?: { handler: Handler; config?: RouteConfig };
  hand?: HandRoute;
}

interface PatternRoute {
  source: string;
  regex: RegExp;
  keys: string[];
  route: TableRoute;
  /** Which segments are parameters. */
  params: boolean[];
}

/** Orders patterns of one length by their first differing segment kind: fixed before parameter (a stable sort keeps the rest). */
function fixedFirst(a: PatternRoute, b: PatternRoute): number {
  for (let i = 0; i < a.params.length; i++) if (a.params[i] !== b.params[i]) return a.params[i] ? 1 : -1;
  return 0;
}

export interface RouteMatch {
  route: TableRoute;
  params: Record<string, string>;
}

const methods = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

export class RouteTable {
  private exact = new Map<string, TableRoute>();
  private patterns = new Map<string, PatternRoute[]>();

  constructor(routes: TableRoute[], base: string) {
    for (const route of routes) {
      const full = `${base}${route.path === '/' ? '' : route.path}`;
      const segments = full.split('/');
      if (!full.includes(':')) {
        const key = `${route.method} ${full}`;
        this.exact.set(key, merged(this.exact.get(key), route));
        continue;
      }
      const keys: string[] = [];
      const source = segments
        .map((segment) => {
          if (!segment.startsWith(':')) return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
          keys.push(segment.slice(1));
          return '([^/]+)';
        })
        .join('/');
      const bucket = `${route.method} ${segments.length}`;
      const list = this.patterns.get(bucket) ?? [];
      const same = list.find((p) => p.source === source);
      if (same) same.route = merged(same.route, route);
      else list.push({ source, regex: new RegExp(`^${source}$`), keys, route, params: segments.map((s) => s.startsWith(':')) });
      this.patterns.set(bucket, list);
    }
    // A fixed segment wins over a parameter in the same place (`/kb/proposals` before `/kb/:content_id`), whatever the modules' order.
    for (const list of this.patterns.values()) list.sort(fixedFirst);
  }

  match(method: string, pathname: string): RouteMatch | null {
    const exact = this.exact.get(`${method} ${pathname}`);
    if (exact) return { route: exact, params: {} };
    const candidates = this.patterns.get(`${method} ${pathname.split('/').length}`);
    if (!candidates) return null;
    for (const { regex, keys, route } of candidates) {
      const found = regex.exec(pathname);
      if (!found) continue;
      const params: Record<string, string> = {};
      try {
        keys.forEach((key, i) => (params[key] = decodeURIComponent(found[i + 1])));
      } catch {
        return null;
      }
      return { route, params };
    }
    return null;
  }

  /** The methods `pathname` answers, HEAD (with GET) and OPTIONS included; null when none does. */
  allowedMethods(pathname: string): string[] | null {
    const found = methods.filter((method) => this.match(method, pathname));
    if (!found.length) return null;
    return [...found, ...(found.includes('GET') ? ['HEAD'] : []), 'OPTIONS'];
  }
}

/** A generated route and a hand-written one on the same method and path share the entry (the first of each kind wins). */
function merged(existing: TableRoute | undefined, route: TableRoute): TableRoute {
  if (!existing) return route;
  return { ...existing, generated: existing.generated ?? route.generated, hand: existing.hand ?? route.hand };
}
