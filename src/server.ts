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

  const server = createServer(app.listener);
  const ws = attachWebSocket(server, app, config.wsMaxPayloadBytes);
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
      // Stop accepting work, let in-flight requests and jobs finish, then release connections.
      closing ??= (async () => {
        await ws.close();
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeIdleConnections();
        });
        await infra.close();
      })();
      return closing;
    },
  };
}
