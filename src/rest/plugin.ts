import { useSofa as createSofaHandler } from 'sofa-api';
import type { RestAliases, RouteConfig } from '../graphql/record.js';
import type { DocumentNode, GraphQLSchema } from 'graphql';
import type { Plugin, YogaInitialContext } from 'graphql-yoga';
import { AppError, toErrorBody } from '../errors.js';
import { RouteTable } from './router.js';
import { restShape } from './shape.js';
import { documentRootArgumentsOnly, withoutNestedArguments } from './nested-arguments.js';
import { addRouteAliases } from './aliases.js';

// The /v3 REST face: SOFA turns each Query/Mutation field with a route into a REST endpoint
// executed through yoga's own pipeline (same context, auth, limits and error masking).

export const restBasePath = '/v3';

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
  routes: Record<string, RouteConfig>;
  aliases?: RestAliases;
  title: string;
  version: string;
}

/** The SOFA router for a schema; `hooks` plug it into yoga's execution (absent when only printing OpenAPI). */
export function createRestHandler(schema: GraphQLSchema, options: RestOptions, hooks: object = {}): SofaHandler {
  const handler = createSofaHandler({
    basePath: restBasePath,
    schema,
    routes: options.routes,
    depthLimit: 2,
    openAPI: {
      endpoint: '/openapi.json',
      info: { title: options.title, version: options.version, description: 'Generated from the GraphQL schema.' },
      components: {
        securitySchemes: {
          jwt: { type: 'apiKey', in: 'header', name: 'Authorization', description: '`JWT <token>`' },
          basic: { type: 'http', scheme: 'basic' },
        },
      },
      servers: [{ url: restBasePath }],
      security: [{ jwt: [] }, { basic: [] }],
    } as never,
    swaggerUI: { endpoint: '/docs' },
    errorHandler: sofaErrorHandler as never,
    ...hooks,
  } as never);
  documentRootArgumentsOnly(handler as never, schema, options.routes);
  addRouteAliases(handler as never, restBasePath, options.routes, options.aliases ?? {});
  return handler;
}

/** The OpenAPI document of the REST face, as served at /v3/openapi.json. */
export async function openApiDocument(schema: GraphQLSchema, options: RestOptions): Promise<unknown> {
  const response = await createRestHandler(schema, options).handleRequest(
    new Request(`http://localhost${restBasePath}/openapi.json`),
    {} as never,
  );
  return response!.json();
}

export function useRestApi(options: RestOptions): Plugin {
  let handler: SofaHandler;
  let table: RouteTable | undefined;
  let getEnveloped: Parameters<NonNullable<Plugin['onYogaInit']>>[0]['yoga']['getEnveloped'];
  const envelopedByContext = new WeakMap<object, ReturnType<typeof getEnveloped>>();
  return {
    onYogaInit({ yoga }) {
      getEnveloped = yoga.getEnveloped;
    },
    onSchemaChange({ schema }) {
      handler = createRestHandler(schema, options, {
        context(serverContext: object) {
          const enveloped = getEnveloped(serverContext);
          return Promise.resolve(enveloped.contextFactory(serverContext)).then((contextValue) => {
            envelopedByContext.set(contextValue, enveloped);
            return contextValue;
          });
        },
        execute(args: { contextValue: object; document: DocumentNode }) {
          const enveloped = envelopedByContext.get(args.contextValue);
          if (!enveloped) throw new TypeError('REST execution without a context');
          return enveloped.execute({ ...args, document: withoutNestedArguments(args.document) } as never);
        },
      });
      // Matching through SOFA's router tries every pattern in turn; this table is compiled once.
      table = new RouteTable((handler as unknown as { __routes: never[] }).__routes, restBasePath);
    },
    async onRequest({ request, url, endResponse, serverContext }) {
      if (url.pathname !== restBasePath && !url.pathname.startsWith(`${restBasePath}/`)) return;
      // SOFA's subscription webhooks would let anyone make this server call any URL: not served.
      if (/^\/v3\/webhook(\/|$)/.test(url.pathname)) {
        endResponse(errorResponse(new AppError('NOT_FOUND', `no route for ${request.method} ${url.pathname}`)));
        return;
      }
      let target = request;
      if (url.pathname.length > restBasePath.length + 1 && url.pathname.endsWith('/')) {
        const trimmed = new URL(url);
        trimmed.pathname = url.pathname.replace(/\/+$/, '');
        target = new Request(trimmed, request);
      }
      const route = table?.match(target.method, new URL(target.url).pathname);
      if (route) Object.defineProperty(target, 'params', { value: route.params, configurable: true });
      const response = route
        ? await route.handler(target, serverContext as object)
        : await handler.handleRequest(target, serverContext as YogaInitialContext & object);
      if (!response) {
        endResponse(errorResponse(new AppError('NOT_FOUND', `no route for ${request.method} ${url.pathname}`)));
        return;
      }
      if (response.status === 200 && response.headers.get('content-type')?.includes('json')) {
        const headers = new Headers(response.headers);
        headers.delete('content-length');
        endResponse(new Response(restShape(await response.text()), { status: 200, headers }));
        return;
      }
      endResponse(response);
    },
  };
}
