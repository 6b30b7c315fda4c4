import type { IncomingMessage } from 'node:http';
import type { Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { useServer } from 'graphql-ws/use/ws';
import { GraphQLError, type ExecutionResult } from 'graphql';
import { WebSocketServer } from 'ws';
import type { App } from '../app.js';
import { clientAddress, trustProxies } from '../http/client-address.js';
import { rateLimited } from '../http/rate-limit.js';
import { AppError, asClientError } from '../errors.js';
import { at, tokenExpiry } from './token-expiry.js';
import { refuseUpgrade, SocketCaps, type SocketLimits } from './socket-caps.js';
import { accountKey } from '../modules/auth/principal.js';

// graphql-ws on the GraphQL path. Operations run through yoga's enveloped pipeline, so they get
// the same context, auth scopes and limits as HTTP. The token travels in connection_init. Each
// operation is charged to the same rate limit as HTTP calls, and a socket (or a token) has a
// bounded number of operations open at once: a refused operation gets an `error` message with
// code TOO_MANY_REQUESTS, and the socket stays open.

type ConnectionExtra = {
  authorization?: string;
  /** Operations accepted on this socket and not complete yet, by id: the token each is counted to (if any). */
  open?: Map<string, string | undefined>;
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

export interface WebSocketOptions {
  maxPayload: number;
  /** Operations open at once per socket, and per token over its sockets on this node. */
  maxOperations: { perSocket: number; perToken: number };
  /** Sockets open at once per account, and awaiting their connection_init per address. */
  maxSockets: SocketLimits;
}

/** graphql-ws's code for a socket closed for going over a limit ("too many requests"). */
const tooManyClose = 4429;

export function attachWebSocket(server: Server, app: App, { maxPayload, maxOperations, maxSockets }: WebSocketOptions) {
  // One message of a socket per turn of the event loop (not the hundreds one read brings at once):
  // a socket flooding messages cannot hold up other sockets and requests (/health), and while its
  // messages wait, ws stops reading from it.
  const wss = new WebSocketServer({ noServer: true, path: '/graphql', maxPayload, allowSynchronousEvents: false });
  const caps = new SocketCaps(maxSockets);
  const { trustProxy } = app.infra.config.http;
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    // The socket's requests name their client as the app's do (TRUST_PROXY).
    if (trustProxy.kind !== 'none') trustProxies(req, trustProxy);
    const address = clientAddress(req);
    if (app.connections.isOver(req.socket)) return refuseUpgrade(req, socket, app.connections.refusal());
    const refused = caps.upgradeRefusal(address);
    if (refused) return refuseUpgrade(req, socket, new AppError('TOO_MANY_REQUESTS', refused, { headers: { 'Retry-After': '1' } }));
    wss.handleUpgrade(req, socket, head, (ws) => {
      caps.opened(ws, address);
      wss.emit('connection', ws, req);
    });
  });
  const { logger } = app.infra;
  /** Operations open per token (its Authorization), over this node's sockets. */
  const openPerToken = new Map<string, number>();
  const opened = (extra: ConnectionExtra, id: string, token: string | undefined) => {
    (extra.open ??= new Map()).set(id, token);
    if (token !== undefined) openPerToken.set(token, (openPerToken.get(token) ?? 0) + 1);
  };
  const completed = (extra: ConnectionExtra, id: string) => {
    if (!extra.open?.has(id)) return;
    const token = extra.open.get(id);
    extra.open.delete(id);
    if (token === undefined) return;
    const count = (openPerToken.get(token) ?? 1) - 1;
    if (count > 0) openPerToken.set(token, count);
    else openPerToken.delete(token);
  };
  /**
   * Why an operation may not run now, or null: every operation is charged to the same rate limit
   * as HTTP calls (per token, else per address), and a socket, or a token over its sockets, has a
   * bounded number of operations open at once. Checked before the operation is even parsed, so a
   * socket flooding subscribe messages costs a map lookup for each past its limits.
   */
  const refusal = (extra: ConnectionExtra, authorization: string | undefined, address: string): AppError | null => {
    const charge = app.budget.take(authorization, address);
    if (!charge.allowed) return rateLimited(charge);
    if ((extra.open?.size ?? 0) >= maxOperations.perSocket) {
      return new AppError('TOO_MANY_REQUESTS', `at most ${maxOperations.perSocket} operations may be open at once on one websocket; complete one first`);
    }
    if (authorization !== undefined && (openPerToken.get(authorization) ?? 0) >= maxOperations.perToken) {
      return new AppError('TOO_MANY_REQUESTS', `at most ${maxOperations.perToken} operations may be open at once for one token; complete one first`);
    }
    return null;
  };

  /** What the client may read of an error: ours and GraphQL's own as they are, anything else masked. */
  const clientError = (error: unknown): GraphQLError => {
    if (error instanceof GraphQLError) return error;
    // A database outage: SERVICE_UNAVAILABLE, which the client may retry.
    const shown = asClientError(error);
    if (shown instanceof GraphQLError) return shown;
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
        const address = clientAddress(ctx.extra.request);
        let principal;
        if (authorization) {
          try {
            principal = await app.services.auth.authenticate(authorization, address);
          } catch {
            return false; // closes with 4403 Forbidden
          }
        }
        // A connection is charged to the account's budget (or the address's) like a request, and
        // an account holds a bounded number of sockets; over either, the socket closes with 4429.
        const charge = app.budget.take(authorization, address);
        const overLimit = !charge.allowed
          ? rateLimited(charge).message
          : caps.initialised(ctx.extra.socket, principal ? accountKey.of(principal) : `address:${address}`);
        if (overLimit) {
          ctx.extra.socket.close(tooManyClose, overLimit);
          return false;
        }
        if (!authorization) return true; // anonymous sockets may only use public fields
        ctx.extra.authorization = authorization;
        if (principal && !principal.anonymous && !principal.bot) {
          // Written in the background: a Redis outage delays presence, never the socket.
          const connectionId = app.services.presence.connected(principal.userId);
          ctx.extra.presence = { userId: principal.userId, connectionId };
          // An expired token keeps nobody online (its subscriptions end then too: see live-access.ts).
          const expires = tokenExpiry(authorization);
          if (expires !== null) ctx.extra.expiry = at(expires, () => void offline(ctx.extra));
        }
        return true;
      },
      onComplete: (ctx, id) => completed(ctx.extra, id),
      onClose: async (ctx) => {
        for (const id of [...(ctx.extra.open?.keys() ?? [])]) completed(ctx.extra, id);
        if (ctx.extra.expiry) clearTimeout(ctx.extra.expiry);
        await offline(ctx.extra);
      },
      // A subscribe message that fails (a syntax error, a query over the limits, anything thrown)
      // is answered with an `error` for that operation only: the socket and its other
      // subscriptions go on.
      onSubscribe: async (ctx, id, payload) => {
        const authorization = operationAuthorization(payload.extensions) ?? ctx.extra.authorization;
        const refused = refusal(ctx.extra, authorization, clientAddress(ctx.extra.request));
        if (refused) return [refused];
        // Counted from now (operations still being parsed count too) until graphql-ws completes
        // it (onComplete), it is refused below, or the socket closes.
        opened(ctx.extra, id, authorization);
        try {
          const headers = new Headers();
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
          if (errors.length) {
            completed(ctx.extra, id);
            return errors;
          }
          return args;
        } catch (error) {
          completed(ctx.extra, id);
          return [clientError(error)];
        }
      },
      execute: (args) => run(() => (args.rootValue as { execute: (a: unknown) => unknown }).execute(args)),
      subscribe: (args) =>
        run(async () => {
          const result = await (args.rootValue as { subscribe: (a: unknown) => unknown }).subscribe(args);
          return isAsyncIterable(result) ? endedByOutage(result as AsyncIterable<ExecutionResult>) : result;
        }),
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

const isAsyncIterable = (value: unknown): value is AsyncIterable<unknown> =>
  !!value && typeof (value as AsyncIterable<unknown>)[Symbol.asyncIterator] === 'function';

/**
 * A subscription's events until one could not be resolved for a database outage (SERVICE_UNAVAILABLE):
 * that event is not sent with holes (a message event without its message, which a client would
 * take as delivered and go past); the outage error is sent alone and the subscription completes,
 * so the client subscribes again with `after` its last seq and receives the event once the
 * database answers.
 */
function endedByOutage(results: AsyncIterable<ExecutionResult>): AsyncIterableIterator<ExecutionResult> {
  // An iterator of its own rather than an async generator: a generator waiting for the source's
  // next event cannot be returned until that event comes, so a completed subscription (the client's
  // `complete`, a socket closing) would hold its slot until its next event.
  const source = results[Symbol.asyncIterator]();
  let ended = false;
  const end = () => {
    ended = true;
    return source.return ? source.return() : Promise.resolve({ done: true as const, value: undefined });
  };
  return {
    [Symbol.asyncIterator]() {
      return this;
    },
    async next() {
      if (ended) return { done: true, value: undefined };
      const step = await source.next();
      if (step.done) return step;
      const outage = step.value.errors?.find((error) => error.extensions?.code === 'SERVICE_UNAVAILABLE');
      if (!outage) return step;
      void end();
      return { done: false, value: { errors: [outage] } };
    },
    async return() {
      await end();
      return { done: true, value: undefined };
    },
    async throw(error: unknown) {
      ended = true;
      if (source.throw) return source.throw(error);
      throw error;
    },
  };
}
