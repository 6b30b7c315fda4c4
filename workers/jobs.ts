import type { JobQueue } from '../src/infra/job-queue.js';
import type { Services } from '../src/services.js';

/**
 * The job catalogue: queue names and the processors behind them. Processors are thin: they
 * validate their data and call a service. The server and `workers/index.ts` register the same list.
 */
export const jobNames = {} as const;

export function registerJobs(_queue: JobQueue, _services: Services) {
  // Webhook delivery and knowledge-base indexing register here as they are built.
}
