import type { Server } from 'node:http';
import { useServer } from 'graphql-ws/use/ws';
import { WebSocketServer } from 'ws';
import type { App } from '../app.js';

// graphql-ws on the GraphQL path. Operations run through yoga's enveloped pipeline, so they get
// the same context, auth scopes and limits as HTTP. The token travels in connection_init.

type ConnectionExtra = {
  authorization?: string;
  /** Set for a teammate's socket: it keeps them online until it closes. */
  presence?: { userId: string; connectionId: string };
};

function authorizationFrom(params: Record<string, unknown> | undefined): string | undefined {
  const value = params?.authorization ?? params?.Authorization ?? params?.token;
  if (typeof value !== 'string' || !value) return undefined;
  return /^(jwt|bearer|basic)\s/i.test(value) ? value : `JWT ${value}`;
}

export function attachWebSocket(server: Server, app: App, maxPayload: number) {
  const wss = new WebSocketServer({ server, path: '/graphql', maxPayload });
  const disposable = useServer<Record<string, unknown>, ConnectionExtra>(
    {
      onConnect: async (ctx) => {
        const authorization = authorizationFrom(ctx.connectionParams);
        if (!authorization) return true; // anonymous sockets may only use public fields
        let principal;
        try {
          principal = await app.services.auth.authenticate(authorization);
        } catch {
          return false; // closes with 4403 Forbidden
        }
        ctx.extra.authorization = authorization;
        if (principal && !principal.anonymous && !principal.bot) {
          const connectionId = await app.services.presence.connected(principal.userId);
          ctx.extra.presence = { userId: principal.userId, connectionId };
        }
        return true;
      },
      onClose: async (ctx) => {
        const presence = ctx.extra.presence;
        if (!presence) return;
        ctx.extra.presence = undefined;
        await app.services.presence.disconnected(presence.userId, presence.connectionId).catch((error) =>
          app.infra.logger.warn({ err: (error as Error).message }, 'presence update on close failed'),
        );
      },
      onSubscribe: async (ctx, _id, payload) => {
        const headers = new Headers();
        if (ctx.extra.authorization) headers.set('authorization', ctx.extra.authorization);
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
      },
      execute: (args) => (args.rootValue as { execute: (a: unknown) => unknown }).execute(args) as never,
      subscribe: (args) => (args.rootValue as { subscribe: (a: unknown) => unknown }).subscribe(args) as never,
    },
    wss,
  );
  void app.services.presence.start().catch((error) => app.infra.logger.warn({ err: (error as Error).message }, 'presence start failed'));
  return {
    wss,
    async close() {
      await app.services.presence.stop();
      await disposable.dispose();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}
