import { ConfigError, loadConfig } from './config.js';
import { MigrationError } from './infra/migrate.js';
import { startServer } from './server.js';

try {
  const config = loadConfig();
  const running = await startServer(config);
  const { logger } = running.app.infra;
  logger.info({ url: running.url, database: running.app.infra.database.kind, redis: !!config.redisUrl }, 'server listening');
  const shutdown = (signal: string) => {
    logger.info({ signal }, 'shutting down');
    running.close().then(
      () => process.exit(0),
      (error) => {
        logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  process.once('SIGINT', () => shutdown('SIGINT'));
} catch (error) {
  if (error instanceof ConfigError || error instanceof MigrationError) {
    console.error(`cannot start: ${error.message}`);
    process.exit(1);
  }
  throw error;
}
