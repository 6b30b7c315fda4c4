// A route table compiled once: exact paths in a map, parameterised paths as regular expressions
// grouped by method and segment count. SOFA's own router tries every pattern in turn through
// a URLPattern polyfill, which dominated the cost of a REST call.

type Handler = (request: Request, serverContext: object) => Promise<Response | undefined> | Response | undefined;

export interface RouteEntry {
  method: string;
  path: string;
  handler: Handler;
}

interface PatternRoute {
  regex: RegExp;
  keys: string[];
  handler: Handler;
}

export interface RouteMatch {
  handler: Handler;
  params: Record<string, string>;
}

export class RouteTable {
  private exact = new Map<string, Handler>();
  private patterns = new Map<string, PatternRoute[]>();

  constructor(routes: RouteEntry[], base: string) {
    for (const route of routes) {
      const full = `${base}${route.path === '/' ? '' : route.path}`;
      const segments = full.split('/');
      if (!full.includes(':')) {
        const key = `${route.method} ${full}`;
        if (!this.exact.has(key)) this.exact.set(key, route.handler);
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
      list.push({ regex: new RegExp(`^${source}$`), keys, handler: route.handler });
      this.patterns.set(bucket, list);
    }
  }

  match(method: string, pathname: string): RouteMatch | null {
    const exact = this.exact.get(`${method} ${pathname}`);
    if (exact) return { handler: exact, params: {} };
    const candidates = this.patterns.get(`${method} ${pathname.split('/').length}`);
    if (!candidates) return null;
    for (const route of candidates) {
      const found = route.regex.exec(pathname);
      if (!found) continue;
      const params: Record<string, string> = {};
      try {
        route.keys.forEach((key, i) => (params[key] = decodeURIComponent(found[i + 1])));
      } catch {
        return null;
      }
      return { handler: route.handler, params };
    }
    return null;
  }
}
