import type { Config } from '../src/config.js';

// Workers share the nodes' database, Redis and files, or they do harm quietly: a worker on an
// embedded database of its own would take jobs for rows it cannot see. So a worker whose settings
// cannot be the cluster's refuses to start, naming the setting.

/** Why a worker process must not start on `config`, or null. */
export function workerSettingsProblem(config: Config): string | null {
  if (!config.redisUrl) return 'REDIS_URL is not set (embedded mode runs jobs inside `npm start`)';
  if (!config.databaseUrl) {
    return 'REDIS_URL is set but DATABASE_URL is not: a worker would open an embedded database of its own, which the server nodes never see; set DATABASE_URL to the nodes\' PostgreSQL';
  }
  return null;
}
