import { EnvelopArmorPlugin } from '@escape.tech/graphql-armor';
import { GraphQLError } from 'graphql';
import { createYoga, type Plugin } from 'graphql-yoga';
import type { IncomingMessage } from 'node:http';
import { buildContext, type Context } from './context.js';
import { AppError } from './errors.js';
import { schema, restOptions } from './graphql/schema.js';
import type { Infrastructure } from './infra/index.js';
import { errorResponse, useRestApi } from './rest/plugin.js';
import { useFileRoutes } from './modules/files/routes.js';
import { createServices, type Services } from './services.js';
import { useHookSecretHeader } from './modules/webhooks/secret-header.js';
import { useKbUpload } from './modules/kb/upload.js';
import { useBotImportUpload } from './modules/bots/upload.js';
import { useRequestArrayBodies } from './modules/requests/array-bodies.js';

// Builds the HTTP application (GraphQL, REST, health) without listening.

export interface App {
  yoga: ReturnType<typeof createYoga<{ req?: IncomingMessage }, Context>>;
  services: Services;
  infra: Infrastructure;
}

function clientIp(serverContext: { req?: IncomingMessage }) {
  return serverContext.req?.socket?.remoteAddress ?? '127.0.0.1';
}

/** Refuses bodies over the limit before anything reads them. */
function useBodyLimit(limit: number): Plugin {
  return {
    onRequest({ request, endResponse }) {
      const length = Number(request.headers.get('content-length') ?? 0);
      if (length > limit) {
        endResponse(errorResponse(new AppError('PAYLOAD_TOO_LARGE', `body: larger than the ${limit}-byte limit`)));
      }
    },
  };
}

function useHealth(infra: Infrastructure): Plugin {
  return {
    async onRequest({ url, endResponse }) {
      if (url.pathname === '/health') endResponse(Response.json({ status: 'ok' }));
      else if (url.pathname === '/ready') {
        const ready = await infra.ready();
        endResponse(Response.json({ status: ready ? 'ready' : 'unavailable' }, { status: ready ? 200 : 503 }));
      }
    },
  };
}

/** One structured line per request: method, path, status, duration. Never headers or query strings. */
function useRequestLog(infra: Infrastructure): Plugin {
  const started = new WeakMap<Request, number>();
  return {
    onRequest({ request }) {
      started.set(request, performance.now());
    },
    onResponse({ request, response }) {
      const start = started.get(request);
      if (start === undefined) return;
      infra.logger.info(
        {
          method: request.method,
          path: new URL(request.url).pathname,
          status: response.status,
          ms: Math.round((performance.now() - start) * 10) / 10,
        },
        'request',
      );
    },
  };
}

export function buildApp(infra: Infrastructure): App {
  const services = createServices(infra);
  const { config } = infra;
  const yoga = createYoga<{ req?: IncomingMessage }, Context>({
    schema,
    graphqlEndpoint: '/graphql',
    healthCheckEndpoint: '/health',
    landingPage: false,
    graphiql: config.graphql.graphiql ? { subscriptionsProtocol: 'WS' } : false,
    logging: false,
    maskedErrors: {
      maskError(error, message) {
        const original = (error as { originalError?: unknown }).originalError ?? error;
        if (original instanceof GraphQLError && !(error as GraphQLError).originalError) return error as GraphQLError;
        if (original instanceof AppError) return original;
        infra.logger.error({ err: original }, 'unexpected error');
        return new GraphQLError(message);
      },
    },
    context: ({ request, ...serverContext }) => buildContext(services, request, clientIp(serverContext)),
    plugins: [
      useRequestLog(infra),
      // Uploads have their own, larger limit (FILE_MAX_BYTES), enforced while reading them.
      useFileRoutes(services),
      // Knowledge-base documents too (KB_FETCH_MAX_BYTES), so this comes before the general body limit.
      useKbUpload(services),
      useBodyLimit(config.bodyLimitBytes),
      useHealth(infra),
      EnvelopArmorPlugin({
        // Introspection counts too: GraphiQL's own query needs about 13 levels.
        maxDepth: { n: config.graphql.maxDepth, ignoreIntrospection: false },
        maxAliases: { n: config.graphql.maxAliases },
        costLimit: { maxCost: config.graphql.maxCost },
        maxTokens: { n: 2000 },
        blockFieldSuggestion: { enabled: config.env === 'production' },
      }),
      useBotImportUpload(),
      useRequestArrayBodies(),
      useRestApi(restOptions),
      useHookSecretHeader(),
    ],
  });
  return { yoga, services, infra };
}
