// Runs the background workers alone, without the HTTP server: `npm run workers`.
// Needs REDIS_URL (BullMQ); embedded mode runs jobs inside the server process.
import '../src/env-file.js';
import { loadConfig } from '../src/config.js';
import { createInfrastructure } from '../src/infra/index.js';
import { schema } from '../src/graphql/schema.js';
import { createServices } from '../src/services.js';
import { registerJobs } from './jobs.js';
import { workerSettingsProblem } from './settings.js';

const config = loadConfig();
const refusal = workerSettingsProblem(config);
if (refusal) {
  console.error(`cannot start workers: ${refusal}`);
  process.exit(1);
}
const infra = await createInfrastructure(config);
const services = createServices(infra, schema);
registerJobs(infra.queue, services);
await infra.queue.startWorkers();
infra.logger.info('workers started');

const shutdown = async (signal: string) => {
  infra.logger.info({ signal }, 'workers draining');
  await infra.close();
  process.exit(0);
};
process.once('SIGTERM', () => void shutdown('SIGTERM'));
process.once('SIGINT', () => void shutdown('SIGINT'));
