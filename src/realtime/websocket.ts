import type { IncomingMessage } from 'node:http';
import type { Server } from 'node:http';
import { useServer } from 'graphql-ws/use/ws';
import { GraphQLError } from 'graphql';
import { WebSocketServer } from 'ws';
import type { App } from '../app.js';
import { clientAddress, trustProxies } from '../http/client-address.js';
import { at, tokenExpiry } from './token-expiry.js';

// graphql-ws on the GraphQL path. Operations run through yoga's enveloped pipeline, so they get
// the same context, auth scopes and limits as HTTP. The token travels in connection_init.

type ConnectionExtra = {
  authorization?: string;
  /** Set for a teammate's socket: it keeps them online until it closes (or its token expires). */
  presence?: { userId: string; connectionId: string };
  expiry?: NodeJS.Timeout;
};

function authorizationFrom(params: Record<string, unknown> | undefined): string | undefined {
  const value = params?.authorization ?? params?.Authorization ?? params?.token;
  if (typeof value !== 'string' || !value) return undefined;
  return /^(jwt|bearer|basic)\s/i.test(value) ? value : `JWT ${value}`;
}

/**
 * The Authorization an operation carries itself, as GraphiQL sends the headers of its header
 * editor with each subscribe message (`extensions.headers`). It is checked like any HTTP request's.
 */
function operationAuthorization(extensions: unknown): string | undefined {
  const headers = (extensions as { headers?: unknown } | null | undefined)?.headers;
  if (!headers || typeof headers !== 'object' || Array.isArray(headers)) return undefined;
  return authorizationFrom(headers as Record<string, unknown>);
}

export function attachWebSocket(server: Server, app: App, maxPayload: number) {
  const wss = new WebSocketServer({ server, path: '/graphql', maxPayload });
  // Before ws takes the upgrade: the socket's requests name their client as the app's do (TRUST_PROXY).
  const { trustProxy } = app.infra.config.http;
  if (trustProxy.kind !== 'none') server.prependListener('upgrade', (req: IncomingMessage) => trustProxies(req, trustProxy));
  const { logger } = app.infra;

  /** What the client may read of an error: ours and GraphQL's own as they are, anything else masked. */
  const clientError = (error: unknown): GraphQLError => {
    if (error instanceof GraphQLError) return error;
    logger.error({ err: error }, 'unexpected error in a websocket operation');
    return new GraphQLError('Unexpected error.');
  };
  const run = async (operation: () => unknown) => {
    try {
      return (await operation()) as never;
    } catch (error) {
      return { errors: [clientError(error)] } as never;
    }
  };
  const offline = async (extra: ConnectionExtra) => {
    const presence = extra.presence;
    if (!presence) return;
    extra.presence = undefined;
    await app.services.presence.disconnected(presence.userId, presence.connectionId).catch((error) =>
      logger.warn({ err: (error as Error).message }, 'presence update on close failed'),
    );
  };

  const disposable = useServer<Record<string, unknown>, ConnectionExtra>(
    {
      onConnect: async (ctx) => {
        const authorization = authorizationFrom(ctx.connectionParams);
        if (!authorization) return true; // anonymous sockets may only use public fields
        let principal;
        try {
          principal = await app.services.auth.authenticate(authorization, clientAddress(ctx.extra.request));
        } catch {
          return false; // closes with 4403 Forbidden
        }
        ctx.extra.authorization = authorization;
        if (principal && !principal.anonymous && !principal.bot) {
          const connectionId = await app.services.presence.connected(principal.userId);
          ctx.extra.presence = { userId: principal.userId, connectionId };
          // An expired token keeps nobody online (its subscriptions end then too: see live-access.ts).
          const expires = tokenExpiry(authorization);
          if (expires !== null) ctx.extra.expiry = at(expires, () => void offline(ctx.extra));
        }
        return true;
      },
      onClose: async (ctx) => {
        if (ctx.extra.expiry) clearTimeout(ctx.extra.expiry);
        await offline(ctx.extra);
      },
      // A subscribe message that fails (a syntax error, a query over the limits, anything thrown)
      // is answered with an `error` for that operation only: the socket and its other
      // subscriptions go on.
      onSubscribe: async (ctx, _id, payload) => {
        try {
          const headers = new Headers();
          const authorization = operationAuthorization(payload.extensions) ?? ctx.extra.authorization;
          if (authorization) headers.set('authorization', authorization);
          const request = new Request('http://localhost/graphql', { method: 'POST', headers });
          const { schema, execute, subscribe, contextFactory, parse, validate } = app.yoga.getEnveloped({
            ...ctx,
            request,
            params: payload,
          } as never);
          const args = {
            schema,
            operationName: payload.operationName,
            document: parse(payload.query),
            variableValues: payload.variables,
            contextValue: await contextFactory(),
            rootValue: { execute, subscribe },
          };
          const errors = validate(args.schema, args.document);
          if (errors.length) return errors;
          return args;
        } catch (error) {
          return [clientError(error)];
        }
      },
      execute: (args) => run(() => (args.rootValue as { execute: (a: unknown) => unknown }).execute(args)),
      subscribe: (args) => run(() => (args.rootValue as { subscribe: (a: unknown) => unknown }).subscribe(args)),
    },
    wss,
  );
  void app.services.presence.start().catch((error) => logger.warn({ err: (error as Error).message }, 'presence start failed'));
  return {
    wss,
    async close() {
      await app.services.presence.stop();
      await disposable.dispose();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}
