import { getNamedType, isScalarType, type DocumentNode, type GraphQLSchema } from 'graphql';
import { AppError, badInput, toErrorBody } from '../errors.js';
import type { RouteConfig } from './route-config.js';
import type { RouteEntry } from './router.js';

// What SOFA does not check of a REST call's input, checked once per call before it runs:
// - the body, when there is one, is a JSON object or array (a `null` body made SOFA fail with a
//   JavaScript error);
// - a top-level body value has the JSON type of its argument: SOFA coerces (`"password": 12345678`
//   became "12345678", `"nobot": "yes"` became false), so a wrong type is a 400 naming the field;
// - a Boolean argument in the query string is `true` or `false` (SOFA read anything else as false);
// - arguments a route reads from the body only (credentials: URLs are logged and cached) are
//   refused in the query string;
// - SOFA reads a body null as "not given": a route may name fields whose explicit null means
//   something of its own (a department's `routing: null`), and those reach the field as null.

export interface RouteInputRules {
  /** Argument → the JSON type its body value must have. */
  types: Map<string, JsonType>;
  bodyOnly: readonly string[];
  keepsNull: readonly string[];
}

type JsonType = 'string' | 'number' | 'integer' | 'boolean' | 'id';

const scalarJson: Record<string, JsonType> = { String: 'string', Int: 'integer', Float: 'number', Boolean: 'boolean', ID: 'id' };

const matches: Record<JsonType, (value: unknown) => boolean> = {
  string: (v) => typeof v === 'string',
  number: (v) => typeof v === 'number',
  integer: (v) => typeof v === 'number' && Number.isInteger(v),
  boolean: (v) => typeof v === 'boolean',
  id: (v) => typeof v === 'string' || (typeof v === 'number' && Number.isInteger(v)),
};
const described: Record<JsonType, string> = {
  string: 'a string',
  number: 'a number',
  integer: 'an integer',
  boolean: 'true or false',
  id: 'a string',
};

/** The rules of a route's field: its scalar arguments' JSON types, from the schema, and the route's own lists. */
export function routeInputRules(schema: GraphQLSchema, field: string, config: RouteConfig): RouteInputRules {
  const [typeName, fieldName] = field.split('.');
  const root = typeName === 'Query' ? schema.getQueryType() : schema.getMutationType();
  const types = new Map<string, JsonType>();
  for (const arg of root?.getFields()[fieldName]?.args ?? []) {
    const named = getNamedType(arg.type);
    if (isScalarType(named) && scalarJson[named.name] && !String(arg.type).startsWith('[')) types.set(arg.name, scalarJson[named.name]);
  }
  return { types, bodyOnly: config.bodyOnly ?? [], keepsNull: config.keepsNull ?? [] };
}

const nullsKey = Symbol('explicit nulls');
type WithNulls = { [nullsKey]?: string[] };

const bodyNotObject = () => badInput('body', 'body: must be a JSON object');

/** The route's handler behind the checks above; the body is read once and handed on as read. */
export function checkingInput(route: RouteEntry, rules: RouteInputRules): RouteEntry {
  const handler: RouteEntry['handler'] = async (request, serverContext) => {
    try {
      const search = new URL(request.url).searchParams;
      if (rules.bodyOnly.length) {
        const given = rules.bodyOnly.find((name) => search.has(name));
        if (given) throw badInput(given, `${given}: send it in the JSON body, never in the URL`);
      }
      checkQuery(search, rules);
      if (request.body != null) {
        const text = await request.text();
        Object.defineProperty(request, 'text', { value: async () => text, configurable: true });
        if (text.trim()) checkBody(text, rules, request as WithNulls);
      }
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      // The one error body (request_id included), as every other refusal.
      const { status, body, headers } = toErrorBody(error);
      return Response.json(body, { status, headers: { ...headers } });
    }
    return route.handler(request, serverContext);
  };
  return { ...route, handler };
}

/** SOFA reads any query value of a Boolean argument but `true` as false: `?hasBot=yes` is a 400 instead. */
function checkQuery(search: URLSearchParams, rules: RouteInputRules) {
  for (const [name, type] of rules.types) {
    if (type !== 'boolean') continue;
    for (const value of search.getAll(name)) {
      if (value !== 'true' && value !== 'false') throw badInput(name, `${name}: must be true or false`);
    }
  }
}

function checkBody(text: string, rules: RouteInputRules, request: WithNulls) {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return; // Not JSON: SOFA answers it (400).
  }
  if (body === null || typeof body !== 'object') throw bodyNotObject();
  if (Array.isArray(body)) return;
  const record = body as Record<string, unknown>;
  for (const [name, type] of rules.types) {
    const value = record[name];
    if (value === undefined || value === null) continue;
    if (!matches[type](value)) throw badInput(name, `${name}: must be ${described[type]}`);
  }
  const nulls = rules.keepsNull.filter((field) => record[field] === null);
  if (nulls.length) request[nullsKey] = nulls;
}

/** The operation's variables with the explicit nulls `checkingInput` noted on its request. */
export function withExplicitNulls(variables: Record<string, unknown> | undefined, request: object | undefined, document: DocumentNode) {
  const nulls = (request as WithNulls | undefined)?.[nullsKey];
  if (!nulls) return variables;
  const declared = new Set(
    document.definitions.flatMap((d) => (d.kind === 'OperationDefinition' ? (d.variableDefinitions ?? []).map((v) => v.variable.name.value) : [])),
  );
  const added = Object.fromEntries(nulls.filter((name) => declared.has(name) && !(name in (variables ?? {}))).map((name) => [name, null]));
  return { ...variables, ...added };
}
