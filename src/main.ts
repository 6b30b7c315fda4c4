import './env-file.js';
import { ConfigError, loadConfig } from './config.js';
import { DatabaseHeldError } from './infra/database.js';
import { MigrationError } from './infra/migrate.js';
import { startServer } from './server.js';
import { warmWebBundles } from './web/serve.js';

try {
  const config = loadConfig();
  const running = await startServer(config);
  const { logger } = running.app.infra;
  warmWebBundles();
  logger.info({ url: running.url, database: running.app.infra.database.kind, redis: !!config.redisUrl }, 'server listening');
  const { shutdownDelayMs, shutdownTimeoutMs } = config.http;
  const shutdown = (signal: string) => {
    logger.info({ signal, delayMs: shutdownDelayMs, timeoutMs: shutdownTimeoutMs }, 'shutting down');
    // The drain cuts connections at its deadline; this bounds what comes after (jobs, stores), so
    // nothing can keep the process past the deadline by more than a few seconds.
    setTimeout(() => {
      logger.error('shutdown did not finish in time: exiting');
      process.exit(1);
    }, shutdownDelayMs + shutdownTimeoutMs + 5000).unref();
    running.close().then(
      () => {
        logger.info('stopped');
        process.exit(0);
      },
      (error) => {
        logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  process.once('SIGINT', () => shutdown('SIGINT'));
} catch (error) {
  if (error instanceof ConfigError || error instanceof MigrationError || error instanceof DatabaseHeldError) {
    console.error(`cannot start: ${error.message}`);
    process.exit(1);
  }
  throw error;
}
