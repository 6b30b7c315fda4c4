import { EnvelopArmorPlugin } from '@escape.tech/graphql-armor';
import { useGraphQlJit } from '@envelop/graphql-jit';
import { useInputGuard } from './graphql/input-guard.js';
import { useIntrospectionPolicy } from './graphql/introspection.js';
import { useOperationLimits } from './graphql/operation-limits.js';
import { useReleaseOperationCaches } from './graphql/release-operation-caches.js';
import { GraphQLError } from 'graphql';
import { createYoga, type Plugin } from 'graphql-yoga';
import { useReadOnlyOperations } from './graphql/read-only.js';
import { ReadAdmission } from './http/read-admission.js';
import type { IncomingMessage } from 'node:http';
import { buildContext, type Context } from './context.js';
import { AppError, asClientError } from './errors.js';
import { schema, restOptions } from './graphql/schema.js';
import type { Infrastructure } from './infra/index.js';
import { createRestApi } from './rest/plugin.js';
import { createListener, type NodeListener } from './http/listener.js';
import { restLane } from './http/rest-lane.js';
import type { Yoga } from './http/yoga.js';
import { graphqlLane } from './http/graphql-lane.js';
import { chunkedBodyLane } from './http/chunked-lane.js';
import { clientAddress, contextAddress, contextIp, trustProxies, useClientAddress } from './http/client-address.js';
import { ConnectionCap } from './http/connection-cap.js';
import { apiBudget, rateLimitGate, type ApiBudget } from './http/rate-limit.js';
import { idempotencyLane } from './http/idempotency.js';
import { IdempotencyKeys } from './infra/idempotency.js';
import { createServices, type Services } from './services.js';
import { useResponseCookies } from './http/response-cookies.js';
import { useLiveSubscriptions } from './realtime/plugin.js';
import { healthLane, healthPaths } from './http/health.js';
import { webLane } from './web/serve.js';
import { Lifecycle } from './http/lifecycle.js';
import { corsPolicy } from './http/cors.js';
import { useResponseCompression } from './http/compression.js';
import { graphiqlOptions } from './http/graphiql.js';

// Builds the HTTP application (GraphQL, REST, health) without listening.

export interface App {
  yoga: Yoga;
  /** The HTTP entry point: /v3 calls to generated routes directly, everything else through yoga. */
  listener: NodeListener;
  services: Services;
  infra: Infrastructure;
  /** Shutdown state: once draining, /ready answers 503 and answers close their connections. */
  lifecycle: Lifecycle;
  /** The rate limit every request, websocket connection and operation is charged to. */
  budget: ApiBudget;
  /** The per-address cap of HTTP connections, attached to the node's server by startServer. */
  connections: ConnectionCap;
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
  const services = createServices(infra, schema);
  const { config } = infra;
  const rest = createRestApi(restOptions);
  const lifecycle = new Lifecycle();
  const nodeState = { ready: () => infra.ready(), draining: lifecycle.draining };
  const plugins = [
    useClientAddress(),
    useResponseCompression(),
    EnvelopArmorPlugin({
      // Depth and cost are operation-limits.ts's: introspection does not count there.
      maxDepth: { enabled: false },
      costLimit: { enabled: false },
      maxAliases: { n: config.graphql.maxAliases },
      maxTokens: { n: 2000 },
      blockFieldSuggestion: { enabled: config.env === 'production' },
    }),
    useOperationLimits(config.graphql),
    useInputGuard(),
    useReadOnlyOperations(),
    useIntrospectionPolicy(config.graphql.introspection),
    useCompiledQueries(),
    useReleaseOperationCaches(),
    // Subscriptions end when the caller's access to what they follow does; resumes are bounded.
    useLiveSubscriptions(services),
    // Connects the /v3 route table to this pipeline; the REST lane serves it.
    rest.plugin,
    useResponseCookies(),
  ];
  const yoga = createYoga<{ req?: IncomingMessage }, Context>({
    schema,
    graphqlEndpoint: '/graphql',
    landingPage: false,
    // CORS is the listener's, for every lane alike (src/http/cors.ts).
    cors: false,
    ...graphiqlOptions(config.graphql.graphiql),
    logging: false,
    maskedErrors: {
      maskError(error, message) {
        const caught = (error as { originalError?: unknown }).originalError ?? error;
        // A database outage met by a resolver is a 503 (SERVICE_UNAVAILABLE, Retry-After), not an unexpected error.
        const original = asClientError(caught);
        if (original instanceof GraphQLError && !(error as GraphQLError).originalError) return error as GraphQLError;
        // Keep where it failed (path, locations): in a partial result the client needs the field.
        if (original instanceof AppError) {
          const { nodes, source, positions, path } = error as GraphQLError;
          return new GraphQLError(original.message, { nodes, source, positions, path, originalError: original, extensions: original.extensions });
        }
        infra.logger.error({ err: original }, 'unexpected error');
        return new GraphQLError(message);
      },
    },
    context: ({ request, ...serverContext }) => buildContext(services, request, contextAddress(serverContext), contextIp(serverContext)),
    plugins,
  });
  const lanes = [
    restLane({ rest, bodyLimitBytes: config.bodyLimitBytes, logger: infra.logger }),
    graphqlLane({ yoga, endpoint: '/graphql', bodyLimitBytes: config.bodyLimitBytes }),
    chunkedBodyLane({ yoga, bodyLimitBytes: config.bodyLimitBytes }),
  ];
  const budget = apiBudget({
    limits: config.rateLimit,
    limiters: infra.limiters,
    accountOf: (credential) => services.auth.accountOf(credential),
  });
  // Connections over the per-address cap are answered 503 before the rate limit charges anyone.
  const connections = new ConnectionCap(config.http.maxConnectionsPerAddress);
  const gate = connections.gate(rateLimitGate(budget, '/graphql'));
  // POSTs with an Idempotency-Key run through the lanes once, then answer again from the database.
  const keyed = idempotencyLane({
    lanes,
    rest,
    keys: new IdempotencyKeys(infra.database.prisma, infra.logger),
    identify: (req) => services.auth.authenticate(req.headers.authorization ?? null, clientAddress(req)),
    config,
    logger: infra.logger,
  });
  // The browser clients' pages and bundles (src/web) answer before the API lanes.
  const answer = createListener([healthLane(nodeState), webLane(), keyed, ...lanes], yoga, infra.logger, gate, {
    cors: corsPolicy(config.http),
    // /v3 answers its own 405s (the REST lane, from the route table).
    knownPaths: { fixed: { ...healthPaths, '/graphql': ['GET', 'POST'] }, answers: () => false },
    bodyLimitBytes: config.bodyLimitBytes,
    draining: lifecycle.draining,
    reads: new ReadAdmission(config.http.readsInFlight),
  });
  // Behind trusted proxies each request says whose address X-Forwarded-For names (TRUST_PROXY).
  const { trustProxy } = config.http;
  const listener: typeof answer =
    trustProxy.kind === 'none'
      ? answer
      : (req, res) => {
          trustProxies(req, trustProxy);
          answer(req, res);
        };
  return { yoga, listener, services, infra, lifecycle, budget, connections };
}
