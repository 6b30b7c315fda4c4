import { PermanentJobError, type JobQueue } from '../src/infra/job-queue.js';
import { indexJobData, indexJobName } from '../src/modules/kb/indexing.js';
import { z } from 'zod';
import { deliveryJob, firstAttemptsJob, firstAttemptsPerJob } from '../src/modules/webhooks/delivery.js';
import type { Services } from '../src/services.js';
import { offerWaitingData, offerWaitingJob } from '../src/modules/requests/jobs.js';
import { externalAttempts, externalBotJob, externalJobData } from '../src/modules/bots/jobs.js';

/**
 * The job catalogue: queue names and the processors behind them. Processors are thin: they
 * validate their data and call a service. The server and `workers/index.ts` register the same list.
 */
export const jobNames = {
  kbIndex: indexJobName,
  webhookDelivery: deliveryJob,
  webhookFirstAttempts: firstAttemptsJob,
  offerWaiting: offerWaitingJob,
  botExternal: externalBotJob,
} as const;

const webhookDeliveryData = z.object({ deliveryId: z.string().min(1), redelivery: z.boolean().optional() });
const webhookFirstAttemptsData = z.object({ deliveryIds: z.array(z.string().min(1)).min(1) });

// A content whose document stays unreachable ends in status 400 after the last attempt.
const kbIndexAttempts = 3;

export function registerJobs(queue: JobQueue, services: Services) {
  queue.define({
    name: jobNames.offerWaiting,
    // One project at a time per worker is plenty: each run walks every waiting request.
    concurrency: 2,
    process: async (data) => {
      const parsed = offerWaitingData.safeParse(data);
      if (!parsed.success) throw new PermanentJobError(`invalid ${jobNames.offerWaiting} job data: ${parsed.error.message}`);
      return services.assignments.offerWaiting(parsed.data.projectId);
    },
  });
  queue.define({
    name: jobNames.kbIndex,
    attempts: kbIndexAttempts,
    backoffMs: (attempt) => 1000 * 2 ** (attempt - 1),
    concurrency: 8,
    process: async (data, job) => {
      const parsed = indexJobData.safeParse(data);
      if (!parsed.success) throw new PermanentJobError(`invalid ${jobNames.kbIndex} job data: ${parsed.error.message}`);
      return services.kb.indexing.run(parsed.data, { attempt: job.attempt, attempts: kbIndexAttempts });
    },
  });
  // Contents left in queue or in indexing by a stopped process are queued again (in-process jobs die with it).
  queue.runBeside({
    name: 'kb-resume-indexing',
    start: async () => {
      await services.kb.indexing.resume().catch((error) =>
        services.infra.logger.warn({ err: (error as Error).message }, 'could not resume knowledge-base indexing'),
      );
      return async () => {};
    },
  });

  // Each attempt is recorded by the service, which also picks the delay before the next one
  // (schedule and jitter) and settles the delivery after the last; the queue only runs them.
  const { webhooks } = services.infra.config;
  queue.define({
    name: jobNames.webhookDelivery,
    attempts: webhooks.retryScheduleMs.length + 1,
    concurrency: webhooks.concurrency,
    lockMs: webhooks.workerLockMs,
    process: async (data) => {
      const parsed = webhookDeliveryData.safeParse(data);
      if (!parsed.success) throw new PermanentJobError(`invalid ${jobNames.webhookDelivery} job data: ${parsed.error.message}`);
      await services.webhooks.sender.deliver(parsed.data);
    },
  });
  // New deliveries' first attempts, a few to a job: as many deliveries in flight as retries may have.
  queue.define({
    name: jobNames.webhookFirstAttempts,
    attempts: 5,
    backoffMs: (attempt) => 1000 * 2 ** (attempt - 1),
    concurrency: Math.ceil(webhooks.concurrency / firstAttemptsPerJob),
    lockMs: webhooks.workerLockMs,
    process: async (data) => {
      const parsed = webhookFirstAttemptsData.safeParse(data);
      if (!parsed.success) throw new PermanentJobError(`invalid ${jobNames.webhookFirstAttempts} job data: ${parsed.error.message}`);
      await services.webhooks.sender.deliverFirst(parsed.data.deliveryIds);
    },
  });
  // Reads the event log into deliveries, wherever workers run.
  queue.runBeside(services.webhooks.dispatcherTask(services));

  queue.define({
    name: jobNames.botExternal,
    attempts: externalAttempts,
    concurrency: 16,
    process: async (data) => {
      const parsed = externalJobData.safeParse(data);
      if (!parsed.success) throw new PermanentJobError(`invalid ${jobNames.botExternal} job data: ${parsed.error.message}`);
      await services.botEngine.external.deliver(parsed.data);
    },
  });
  // Renders what external bots receive; waits for the bots' turns in progress on shutdown.
  queue.runBeside(services.botEngine.backgroundTask(services));
}
