import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { buildApp, type App } from './app.js';
import type { Config } from './config.js';
import { createInfrastructure, type InfrastructureOptions } from './infra/index.js';
import { attachWebSocket } from './realtime/websocket.js';
import { registerJobs } from '../workers/jobs.js';

export interface RunningServer {
  app: App;
  server: Server;
  url: string;
  close(): Promise<void>;
}

/** Builds the infrastructure and the app, starts workers (unless disabled) and listens. */
export async function startServer(config: Config, options: InfrastructureOptions = {}): Promise<RunningServer> {
  const infra = await createInfrastructure(config, options);
  const app = buildApp(infra);
  registerJobs(infra.queue, app.services);
  if (config.runWorkers) await infra.queue.startWorkers();

  const { headersTimeoutMs, requestTimeoutMs, keepAliveTimeoutMs } = config.http;
  const server = createServer(
    // Checked every second rather than every 30 s (node's default), so the timeouts hold to about a second.
    { headersTimeout: headersTimeoutMs, requestTimeout: requestTimeoutMs, connectionsCheckingInterval: Math.min(1000, headersTimeoutMs) },
    app.listener,
  );
  server.keepAliveTimeout = keepAliveTimeoutMs;
  app.connections.attach(server);
  const ws = attachWebSocket(server, app, {
    maxPayload: config.wsMaxPayloadBytes,
    maxOperations: config.wsMaxOperations,
    maxSockets: { perAccount: config.wsMaxSocketsPerAccount, awaitingInitPerAddress: config.http.maxConnectionsPerAddress },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, resolve);
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;

  let closing: Promise<void> | undefined;
  return {
    app,
    server,
    url,
    close() {
      closing ??= drain(server, ws, app, config.http);
      return closing;
    },
  };
}

/**
 * A graceful stop, as a load balancer expects of a node: /ready answers 503 at once (and every
 * answer asks its client to close the connection) while the node goes on serving for
 * `shutdownDelayMs`; then it stops accepting connections, closes idle ones and websockets (1001,
 * going away), and lets the requests in flight finish. At `shutdownTimeoutMs` whatever is still
 * open (a client that stalled mid-request, a socket that never answers its close) is cut, so no
 * client can keep the process alive; then jobs and stores are released.
 */
async function drain(server: Server, ws: ReturnType<typeof attachWebSocket>, app: App, { shutdownDelayMs, shutdownTimeoutMs }: Config['http']) {
  const { logger } = app.infra;
  app.lifecycle.beginDrain();
  if (shutdownDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, shutdownDelayMs));
  const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  const deadline = setTimeout(() => {
    logger.warn({ timeoutMs: shutdownTimeoutMs }, 'shutdown deadline reached: closing the connections still open');
    server.closeAllConnections();
    for (const socket of ws.wss.clients) socket.terminate();
  }, shutdownTimeoutMs);
  try {
    await Promise.all([ws.close(), stopped]);
  } finally {
    clearTimeout(deadline);
  }
  await app.infra.close();
}
