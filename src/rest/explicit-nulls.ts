import type { DocumentNode } from 'graphql';
import type { RouteEntry } from './router.js';

// SOFA reads a body value of null as "not given", so a REST client cannot send an explicit null.
// A route may name body fields whose null means something of its own (a department's
// `routing: null`): their nulls reach the field as GraphQL nulls, as they would over GraphQL.

const nullsKey = Symbol('explicit nulls');
type WithNulls = { [nullsKey]?: string[] };

/** The route's handler, noting which of `fields` the JSON body sets to null (the body is read once). */
export function keepingNulls(route: RouteEntry, fields: readonly string[]): RouteEntry {
  const handler: RouteEntry['handler'] = async (request, serverContext) => {
    if (request.body != null) {
      const text = await request.text();
      Object.defineProperty(request, 'text', { value: async () => text, configurable: true });
      try {
        const body = JSON.parse(text) as unknown;
        if (body && typeof body === 'object' && !Array.isArray(body)) {
          const nulls = fields.filter((field) => (body as Record<string, unknown>)[field] === null);
          if (nulls.length) (request as WithNulls)[nullsKey] = nulls;
        }
      } catch {
        // Not JSON: SOFA answers it.
      }
    }
    return route.handler(request, serverContext);
  };
  return { ...route, handler };
}

/** The operation's variables with the explicit nulls `keepingNulls` noted on its request. */
export function withExplicitNulls(variables: Record<string, unknown> | undefined, request: object | undefined, document: DocumentNode) {
  const nulls = (request as WithNulls | undefined)?.[nullsKey];
  if (!nulls) return variables;
  const declared = new Set(
    document.definitions.flatMap((d) => (d.kind === 'OperationDefinition' ? (d.variableDefinitions ?? []).map((v) => v.variable.name.value) : [])),
  );
  const added = Object.fromEntries(nulls.filter((name) => declared.has(name) && !(name in (variables ?? {}))).map((name) => [name, null]));
  return { ...variables, ...added };
}
