import { useSofa as createSofaHandler } from 'sofa-api';
import type { RestAliases, RestRoutes, RouteConfig } from './route-config.js';
import type { DocumentNode, GraphQLSchema } from 'graphql';
import type { Plugin, YogaInitialContext } from 'graphql-yoga';
import { AppError, toErrorBody, type ErrorBody } from '../errors.js';
import { coercionField } from './coercion-field.js';
import type { RestRequest } from './request.js';
import { checkingInput, routeInputRules, withExplicitNulls } from './route-input.js';
import { RouteTable, type RouteEntry, type TableRoute, type RouteMatch } from './router.js';
import { isHandRoute, type HandRoute } from './hand-route.js';
import { replyOf, type Reply } from '../http/node-request.js';
import { restDocument } from './shape.js';
import { aliasRoutes } from './aliases.js';
import { buildOpenApiDocument } from './openapi/document.js';
import { restBasePath } from './base-path.js';
import { documentationRoutes } from './docs-page.js';
import type { ApiTag } from '../module.js';

// The /v3 REST face: SOFA turns each Query/Mutation field with a route into a REST endpoint
// executed through yoga's own pipeline (same context, auth, limits and error masking). With the
// routes written by hand (hand-route.ts) they make one route table, which the REST lane
// (src/http/rest-lane.ts) serves: the only way into /v3.

export { restBasePath };

type SofaHandler = ReturnType<typeof createSofaHandler>;

export function errorResponse(error: unknown): Response {
  const { status, body, headers } = toErrorBody(error);
  return Response.json(body, { status, headers: { ...headers } });
}

function sofaErrorHandler(errors: readonly unknown[]): Response {
  // The most specific (highest) status wins, as several fields may fail at once.
  const mapped = errors.map(toErrorBody).sort((a, b) => b.status - a.status);
  const { status, body, headers } = mapped[0];
  return Response.json(body, { status, headers: { ...headers } });
}

export interface RestOptions {
  routes: RestRoutes;
  aliases?: RestAliases;
  /** The OpenAPI document's tags (each module's). */
  tags?: readonly ApiTag[];
  title: string;
  version: string;
}

/** The routes SOFA generates (those of a GraphQL field), without the ones written by hand. */
export function generatedRoutes(routes: RestRoutes): Record<string, RouteConfig> {
  return Object.fromEntries(Object.entries(routes).filter((entry): entry is [string, RouteConfig] => !isHandRoute(entry[1])));
}

/** The routes written by hand. */
export function handRoutes(routes: RestRoutes): HandRoute[] {
  return Object.values(routes).filter(isHandRoute);
}

/** The SOFA router for a schema; `hooks` plug it into yoga's execution (absent when only printing OpenAPI). */
export function createRestHandler(schema: GraphQLSchema, options: Pick<RestOptions, 'routes'>, hooks: object = {}): SofaHandler {
  const handler = createSofaHandler({
    basePath: restBasePath,
    schema,
    routes: generatedRoutes(options.routes),
    depthLimit: sofaDepthLimit,
    // The document and its page are this face's own (openapi/document.ts, docs-page.ts).
    openAPI: { endpoint: false },
    swaggerUI: { endpoint: false },
    errorHandler: sofaErrorHandler as never,
    ...hooks,
  } as never);
  return handler;
}

/** SOFA's circular reference depth: how deep a type may recur in a route's selection. */
export const sofaDepthLimit = 2;

/** The OpenAPI document of the REST face, as served at /v3/openapi.json: every route of the table. */
export function openApiDocument(schema: GraphQLSchema, options: RestOptions): Record<string, unknown> {
  const routes = { ...options.routes, ...documentationRoutes(() => '') };
  return buildOpenApiDocument(schema, { ...options, routes, depthLimit: sofaDepthLimit, basePath: restBasePath });
}

/** What the REST face needs of a request: a Fetch `Request`, or the direct lane's view of a node request. */
export type { RestRequest };
export type { RouteMatch, TableRoute };

export interface RestApi {
  /** Connects the table to yoga's pipeline (its envelop, the schema); serves no request itself. */
  plugin: Plugin;
  /** The route for a method and path (no trailing slash), or null. */
  match(method: string, pathname: string): RouteMatch | null;
  /** The methods a path answers (for 405 and its Allow header), or null for a path no route has. */
  allowedMethods(pathname: string): string[] | null;
  /** Runs a generated route; answers REST JSON (records with `__v`) or the error body. */
  respond(request: RestRequest, route: RouteMatch, serverContext: object): Promise<Reply>;
  /** The context an operation of this request gets (for routes written by hand). */
  context(serverContext: object): Promise<object>;
}

/** The document SOFA made for a route as the REST face runs it (made once per route). */
const restDocuments = new WeakMap<DocumentNode, DocumentNode>();
function routeDocument(schema: GraphQLSchema, document: DocumentNode): DocumentNode {
  let result = restDocuments.get(document);
  if (!result) restDocuments.set(document, (result = restDocument(schema, document)));
  return result;
}

/** Where the execute hook leaves a successful result for `respond`, on the request it served. */
const executed = Symbol('rest result');
type Executed = { [executed]?: { data: Record<string, unknown> } };

/** The 404 body for a path no route serves. */
export const noRoute = (method: string, pathname: string) => errorResponse(new AppError('NOT_FOUND', `no route for ${method} ${pathname}`));

function missingTarget(target: RouteConfig): never {
  throw new Error(`REST alias target ${target.method} ${target.path} is not a generated route`);
}

/** A 400 from SOFA's coercion of a value, with the field named (see coercion-field.ts). */
async function withCoercionField(response: Response, request: RestRequest, params: Record<string, string>) {
  const body = (await response.clone().json().catch(() => null)) as ErrorBody | null;
  if (!body || body.field) return response;
  const field = await coercionField(body, request, params);
  if (!field) return response;
  return Response.json({ ...body, message: `${field}: ${body.message}`, field }, { status: 400, headers: response.headers });
}

export function createRestApi(options: RestOptions): RestApi {
  let table: RouteTable | undefined;
  let getEnveloped: Parameters<NonNullable<Plugin['onYogaInit']>>[0]['yoga']['getEnveloped'];
  // The pipeline that made a context executes its operation: kept on the context, not in a
  // WeakMap keyed by it (see `perContext` in context.ts).
  const envelopedKey = Symbol('enveloped');
  type WithEnveloped = { [envelopedKey]?: ReturnType<typeof getEnveloped> };

  const context = (serverContext: object) => {
    const enveloped = getEnveloped(serverContext);
    return Promise.resolve(enveloped.contextFactory(serverContext)).then((contextValue) => {
      (contextValue as WithEnveloped)[envelopedKey] = enveloped;
      return contextValue;
    });
  };

  const respond = async (request: RestRequest, { route, params }: RouteMatch, serverContext: object): Promise<Reply> => {
    Object.defineProperty(request, 'params', { value: params, configurable: true });
    const response = await route.generated!.handler(request as Request, serverContext);
    const result = (request as Executed)[executed];
    if (response?.status === 200 && result) {
      // One field per operation: its value is the answer. Serialised once, here, not read back from SOFA's Response.
      const [value] = Object.values(result.data);
      const headers: Record<string, string> = { 'content-type': 'application/json; charset=utf-8' };
      for (const [header, field] of Object.entries(route.generated!.config?.answerHeaders ?? {})) {
        const given = (value as Record<string, unknown> | null)?.[field];
        if (typeof given === 'string') headers[header] = given;
      }
      return { status: 200, headers, body: JSON.stringify(value ?? null) };
    }
    if (response?.status === 400) return replyOf(await withCoercionField(response, request, params));
    return replyOf(response ?? noRoute(request.method, new URL(request.url).pathname));
  };

  const plugin: Plugin = {
    onYogaInit({ yoga }) {
      getEnveloped = yoga.getEnveloped;
    },
    onSchemaChange({ schema }) {
      let json: string | undefined;
      const documentJson = () => (json ??= JSON.stringify(openApiDocument(schema, options)));
      const handler = createRestHandler(schema, options, {
        context,
        execute(args: { contextValue: object; document: DocumentNode; variableValues?: Record<string, unknown> }) {
          const enveloped = (args.contextValue as WithEnveloped)[envelopedKey];
          if (!enveloped) throw new TypeError('REST execution without a context');
          const request = (args.contextValue as { request?: Executed }).request;
          const variableValues = withExplicitNulls(args.variableValues, request, args.document);
          return Promise.resolve(enveloped.execute({ ...args, variableValues, document: routeDocument(schema, args.document) } as never)).then(
            (result) => {
              const { data, errors } = result as { data?: Record<string, unknown> | null; errors?: unknown[] };
              if (!request || errors?.length || !data) return result;
              // SOFA would serialise the value into its Response; respond() does it once instead.
              request[executed] = { data };
              return { data: Object.fromEntries(Object.keys(data).map((k) => [k, null])) };
            },
          );
        },
      });
      // Matching through SOFA's router tries every pattern in turn; this table is compiled once.
      // An alias runs its target's handler directly (same parameter names, same execution).
      // Each route's input is checked before SOFA reads it (route-input.ts).
      const configs = Object.entries(generatedRoutes(options.routes));
      // SOFA's own routes: one per field, and the webhooks of its subscriptions (which would let
      // anyone make this server call any URL: never served).
      const sofaRoutes = (handler as unknown as { __routes: RouteEntry[] }).__routes.filter((route) => !/^\/webhook(\/|$)/.test(route.path));
      const generated = sofaRoutes.map((route) => {
        const found = configs.find(([, r]) => r.method === route.method && r.path === route.path);
        return { ...(found ? checkingInput(route, routeInputRules(schema, found[0], found[1])) : route), config: found?.[1] };
      });
      const generatedOf = (method: string, path: string) => generated.find((r) => r.method === method && r.path === path);
      const aliases = aliasRoutes(generatedRoutes(options.routes), options.aliases ?? {}).map(({ alias, target }) => {
        const route = generatedOf(target.method, target.path) ?? missingTarget(target);
        return { method: alias.method, path: alias.path, generated: { handler: route.handler, config: route.config } };
      });
      table = new RouteTable(
        [
          ...generated.map(({ method, path, handler, config }) => ({ method, path, generated: { handler, config } })),
          ...aliases,
          ...handRoutes({ ...options.routes, ...documentationRoutes(documentJson) }).map((hand) => ({ method: hand.method, path: hand.path, hand })),
        ],
        restBasePath,
      );
    },
  };

  return {
    plugin,
    match: (method, pathname) => table?.match(method, pathname) ?? null,
    allowedMethods: (pathname) => table?.allowedMethods(pathname) ?? null,
    respond,
    context,
  };
}
