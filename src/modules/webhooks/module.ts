import { defineModule } from '../../module.js';
import { routes } from './schema.js';
import { webhooksEvents } from './events.js';
import { deliveryJob, firstAttemptsJob, firstAttemptsPerJob } from './delivery.js';
import { payloadContext, RecordRenderer } from './render.js';
import { WebhookService } from './service.js';

declare module '../../module.js' {
  interface ServiceRegistry {
    records: RecordRenderer;
    webhooks: WebhookService;
  }
}

export default defineModule({
  name: 'webhooks',
  services: {
    /** Renders what leaves the platform (webhook and external-bot payloads) as REST shows it. */
    records: (s, { schema }) => new RecordRenderer(() => schema, () => payloadContext(s)),
    webhooks: (s, { db, infra }) => new WebhookService(db, infra.eventLog, infra.bus, infra.queue, infra.config, infra.logger, s.records, infra.limiters),
  },
  routes,
  tags: [{ name: 'Webhooks', description: 'Webhook subscriptions and their deliveries.', segments: ['subscriptions', 'webhooks'] }],
  events: webhooksEvents,
  listeners: (services) => [services.webhooks.dispatcher],
  jobTypes: [deliveryJob, firstAttemptsJob],
  jobs: (queue, services) => {
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
  },
});
