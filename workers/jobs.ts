import type { JobQueue, JobType } from '../src/infra/job-queue.js';
import { indexJob } from '../src/modules/kb/indexing/indexing.js';
import { deliveryJob, firstAttemptsJob, firstAttemptsPerJob } from '../src/modules/webhooks/delivery.js';
import type { Services } from '../src/services.js';
import { externalAttempts, externalBotJob } from '../src/modules/bots/jobs.js';
import { emailJob } from '../src/modules/email/mailer.js';

/**
 * The job catalogue: every job type and the processor behind it. Each type (queue name and data
 * schema) is declared by the module that owns the work; processors get their data parsed by the
 * queue and call a service. The server and `workers/index.ts` register the same list.
 */
export const jobTypes = [indexJob, deliveryJob, firstAttemptsJob, externalBotJob, emailJob] as const satisfies readonly JobType[];

// A content whose document stays unreachable ends in status 400 after the last attempt.
const kbIndexAttempts = 3;

export function registerJobs(queue: JobQueue, services: Services) {
  queue.define({
    job: indexJob,
    attempts: kbIndexAttempts,
    backoffMs: (attempt) => services.infra.config.kb.indexRetryDelayMs * 2 ** (attempt - 1),
    concurrency: 8,
    process: (data, job) => services.kb.indexing.run(data, { attempt: job.attempt, attempts: kbIndexAttempts }),
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
    job: deliveryJob,
    attempts: webhooks.retryScheduleMs.length + 1,
    concurrency: webhooks.concurrency,
    lockMs: webhooks.workerLockMs,
    process: (data) => services.webhooks.sender.deliver(data),
  });
  // New deliveries' first attempts, a few to a job: as many deliveries in flight as retries may have.
  queue.define({
    job: firstAttemptsJob,
    attempts: 5,
    backoffMs: (attempt) => 1000 * 2 ** (attempt - 1),
    concurrency: Math.ceil(webhooks.concurrency / firstAttemptsPerJob),
    lockMs: webhooks.workerLockMs,
    process: (data) => services.webhooks.sender.deliverFirst(data.deliveryIds),
  });
  // Queues again the deliveries whose job was lost.
  queue.runBeside(services.webhooks.recoveryTask());

  queue.define({
    job: externalBotJob,
    attempts: externalAttempts,
    concurrency: 16,
    process: (data) => services.botEngine.external.deliver(data),
  });
  // Renders what external bots receive; waits for the bots' turns in progress on shutdown.
  queue.runBeside(services.botEngine.backgroundTask());

  // Scheduled messages: every process sweeps the due ones; each is sent once (scheduled.ts).
  queue.runBeside(services.scheduledMessages.backgroundTask());
  queue.runBeside(services.slaTimers.backgroundTask());

  // E-mail: the send job.
  queue.define(services.email.mailer.jobDefinition());

  // Audit entries past AUDIT_RETENTION_DAYS.
  queue.runBeside(services.audit.retentionTask());
  // Closed conversations past their project's retention_days.
  queue.runBeside(services.retention.task());

  // The consumers of committed events (services.ts lists them), each from its own cursor.
  const consumers = services.infra.eventConsumers;
  for (const consumer of services.listeners) consumers.register(consumer);
  queue.runBeside(consumers.task());
}
