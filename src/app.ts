import { EnvelopArmorPlugin } from '@escape.tech/graphql-armor';
import { useGraphQlJit } from '@envelop/graphql-jit';
import { useInputGuard } from './graphql/input-guard.js';
import { useIntrospectionPolicy } from './graphql/introspection.js';
import { useReleaseOperationCaches } from './graphql/release.js';
import { GraphQLError } from 'graphql';
import { createYoga, type Plugin } from 'graphql-yoga';
import type { IncomingMessage } from 'node:http';
import { buildContext, type Context } from './context.js';
import { AppError, bodyTooLarge } from './errors.js';
import { schema, restOptions } from './graphql/schema.js';
import type { Infrastructure } from './infra/index.js';
import { createRestApi, errorResponse } from './rest/plugin.js';
import { createListener, fromLane, type NodeListener } from './http/listener.js';
import { restLane } from './http/rest-lane.js';
import { graphqlLane } from './http/graphql-lane.js';
import { chunkedBodyLane } from './http/chunked-lane.js';
import { clientAddress, contextAddress, useClientAddress } from './http/client-address.js';
import { rateLimitGate } from './http/rate-limit.js';
import { idempotencyLane } from './http/idempotency.js';
import { IdempotencyKeys } from './infra/idempotency.js';
import { isFileRoute, useFileRoutes } from './modules/files/routes.js';
import { createServices, type Services } from './services.js';
import { createsSubscription, useHookSecretHeader } from './modules/webhooks/secret-header.js';
import { useKbUpload } from './modules/kb/upload.js';
import { useBotImportUpload } from './modules/bots/upload.js';
import { takesArrayBody, useRequestArrayBodies } from './modules/requests/array-bodies.js';
import { useLiveSubscriptions } from './realtime/plugin.js';

// Builds the HTTP application (GraphQL, REST, health) without listening.

export interface App {
  yoga: ReturnType<typeof createYoga<{ req?: IncomingMessage }, Context>>;
  /** The HTTP entry point: /v3 calls to generated routes directly, everything else through yoga. */
  listener: NodeListener;
  services: Services;
  infra: Infrastructure;
}

/** Refuses bodies over the limit before anything reads them. */
function useBodyLimit(limit: number): Plugin {
  return {
    onRequest({ request, endResponse }) {
      const length = Number(request.headers.get('content-length') ?? 0);
      if (length > limit) {
        endResponse(errorResponse(bodyTooLarge(limit)));
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
    onRequest({ request, serverContext }) {
      // A lane that hands a request to yoga writes the request line itself.
      if ((serverContext as Record<string, unknown> | undefined)?.[fromLane]) return;
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

/**
 * Queries and mutations run as code compiled once per document (graphql-jit), which also writes
 * their JSON with a serialiser made for the document; subscriptions keep the reference executor.
 */
function useCompiledQueries(): Plugin {
  const { onExecute } = useGraphQlJit({}, { onError: () => undefined });
  return { onExecute };
}

export function buildApp(infra: Infrastructure): App {
  const services = createServices(infra);
  const { config } = infra;
  const rest = createRestApi(restOptions);
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
    context: ({ request, ...serverContext }) => buildContext(services, request, contextAddress(serverContext)),
    plugins: [
      useClientAddress(),
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
      useInputGuard(),
      useIntrospectionPolicy(config.graphql.introspection),
      useCompiledQueries(),
      useReleaseOperationCaches(),
      // Subscriptions end when the caller's access to what they follow does; resumes are bounded.
      useLiveSubscriptions(services),
      useBotImportUpload(),
      useRequestArrayBodies(),
      rest.plugin,
      useHookSecretHeader(),
    ],
  });
  const lanes = [
    restLane({
      rest,
      bodyLimitBytes: config.bodyLimitBytes,
      // Kept in step with the plugins ahead of the REST face that answer or rewrite a JSON request.
      claimedElsewhere: (method, pathname) =>
        isFileRoute(method, pathname) || takesArrayBody(method, pathname) || createsSubscription(method, pathname),
    }),
    graphqlLane({ yoga, endpoint: '/graphql', bodyLimitBytes: config.bodyLimitBytes }),
    chunkedBodyLane({ yoga, bodyLimitBytes: config.bodyLimitBytes }),
  ];
  const gate = rateLimitGate({
    limits: config.rateLimit,
    limiters: infra.limiters,
    isVouched: (credential) => services.auth.isVouched(credential),
    graphqlEndpoint: '/graphql',
  });
  // POSTs with an Idempotency-Key run through the lanes once, then answer again from the database.
  const keyed = idempotencyLane({
    lanes,
    yoga,
    rest,
    keys: new IdempotencyKeys(infra.database.prisma, infra.logger),
    identify: (req) => services.auth.authenticate(req.headers.authorization ?? null, clientAddress(req)),
    config,
    logger: infra.logger,
  });
  const listener = createListener([keyed, ...lanes], yoga, infra.logger, gate);
  return { yoga, listener, services, infra };
}
