import type { Config } from '../../config.js';
import type { Db, Tx } from '../../infra/database.js';
import { cuid } from '../../infra/ids.js';
import type { EventBus } from '../../infra/event-bus.js';
import type { EventConsumer, EventWork } from '../../infra/event-consumers.js';
import type { LoggedEvent } from '../../infra/event-log.js';
import type { JobQueue } from '../../infra/job-queue.js';
import type { Logger } from '../../infra/logger.js';
import { catalogueEntry, subscriptionMatches, type RenderTools } from './catalogue.js';
import type { RestRecord } from './render.js';
import { deliveryJob, firstAttemptsJob, firstAttemptsPerJob } from './delivery.js';

// Turns the event log into deliveries: a consumer of the event log (infra/event-consumers.ts).
// For each batch of a project's events, each event some enabled subscription wants is rendered
// once, and one WebhookDelivery row is written per subscription in the transaction that moves the
// webhooks' cursor past the batch; the new deliveries' first attempts are queued after the commit,
// a few deliveries to one subscription per job. A crash before the commit reads the batch again;
// one after it leaves pending deliveries, which the periodic recovery queues again.

/** Signals, across nodes, that a project's subscriptions changed. */
export const subscriptionsChannel = 'webhooks:subscriptions';

/** How long this process trusts what it knows of whether a project has subscriptions. */
const subscribedTtlMs = 10_000;
const subscribedKept = 10_000;

export class WebhookDispatcher implements EventConsumer {
  readonly name = 'webhooks';
  /** Whether a project had enabled subscriptions when last read: its events wake the consumer only if so. */
  private subscribed = new Map<string, { has: boolean; at: number }>();
  private stopped = true;

  constructor(
    private db: Db,
    private bus: EventBus,
    private queue: JobQueue,
    private config: Config,
    private logger: Logger,
    private tools: () => RenderTools,
  ) {}

  /** Recovers lost deliveries at start and periodically; the returned function stops it. */
  async start(): Promise<() => Promise<void>> {
    this.stopped = false;
    const unlisten = this.bus.subscribe(subscriptionsChannel, (message) => {
      if (typeof message.projectId === 'string') this.forget(message.projectId);
    });
    let recovering: Promise<void> | undefined;
    const tick = () => {
      recovering ??= this.recover({ all: false })
        .catch((error) => this.logger.error({ err: error }, 'webhook recovery failed'))
        .finally(() => (recovering = undefined));
    };
    const timer = setInterval(tick, this.config.webhooks.sweepIntervalMs);
    timer.unref();
    await this.recover({ all: true }).catch((error) => this.logger.error({ err: error }, 'webhook recovery failed'));
    return async () => {
      this.stopped = true;
      clearInterval(timer);
      unlisten();
      await recovering;
    };
  }

  /** A project's subscriptions changed: its next events are read at once. */
  forget(projectId: string) {
    this.subscribed.delete(projectId);
  }

  wants(event: LoggedEvent) {
    return !!catalogueEntry(event.name);
  }

  wakesFor(event: LoggedEvent) {
    if (!this.wants(event)) return false;
    const known = this.subscribed.get(event.projectId);
    return !known || known.has || Date.now() - known.at > subscribedTtlMs;
  }

  async handle(projectId: string, events: LoggedEvent[]): Promise<EventWork | void> {
    const subscriptions = await this.db.subscription.findMany({
      where: { id_project: projectId, enabled: true },
      select: { id: true, event: true, activeSince: true },
    });
    if (this.subscribed.size >= subscribedKept) this.subscribed.clear();
    this.subscribed.set(projectId, { has: subscriptions.length > 0, at: Date.now() });
    if (!subscriptions.length) return;

    // Who gets what: a subscription receives the events logged while it is enabled.
    const wanted = new Map<string, string[]>();
    for (const event of events) {
      const at = new Date(event.createdAt);
      const ids = subscriptions.filter((s) => s.activeSince <= at && subscriptionMatches(s.event, event.name)).map((s) => s.id);
      if (ids.length) wanted.set(event.id, ids);
    }
    if (!wanted.size) return;

    // Rendered before the cursor's transaction: rendering reads through the services.
    const payloads = new Map<string, RestRecord>();
    const byName = new Map<string, LoggedEvent[]>();
    for (const event of events) {
      if (!wanted.has(event.id)) continue;
      byName.set(event.name, [...(byName.get(event.name) ?? []), event]);
    }
    for (const [name, group] of byName) {
      try {
        for (const [id, payload] of await catalogueEntry(name)!.render(group, this.tools())) payloads.set(id, payload);
      } catch (error) {
        // One record that cannot be rendered must not hold back the project's later events.
        this.logger.error({ err: error, event: name, project: projectId }, 'webhook payload rendering failed; sending identifiers');
        for (const e of group) payloads.set(e.id, { _id: e.subject, id: e.subject, id_project: e.projectId });
      }
    }
    const mine = events.filter((e) => wanted.has(e.id) && payloads.has(e.id));
    let created: { id: string; subscriptionId: string }[] = [];
    return {
      write: async (tx) => {
        created = await this.writeDeliveries(tx, projectId, mine, wanted, payloads);
      },
      committed: () => this.queueFirstAttempts(created),
    };
  }

  /** The payloads and one delivery per subscription and event; answers the deliveries written. */
  private async writeDeliveries(tx: Tx, projectId: string, events: LoggedEvent[], wanted: Map<string, string[]>, payloads: Map<string, RestRecord>) {
    const now = new Date().toISOString();
    // Thousands of rows a second: one statement per table, the rows as one JSON parameter.
    const payloadRows = events.map((e) => ({ eventId: e.id, name: e.name, payload: payloads.get(e.id), occurredAt: e.createdAt }));
    await tx.$executeRaw`
      INSERT INTO "WebhookPayload" ("eventId", "id_project", "name", "payload", "occurredAt", "createdAt")
      SELECT x."eventId", ${projectId}, x."name", x."payload", x."occurredAt", ${now}::timestamp(3)
      FROM jsonb_to_recordset(${JSON.stringify(payloadRows)}::jsonb)
        AS x("eventId" text, "name" text, "payload" jsonb, "occurredAt" timestamp(3))
      ON CONFLICT DO NOTHING`;
    const deliveryRows = events.flatMap((e) => wanted.get(e.id)!.map((subscriptionId) => ({ id: cuid(), subscriptionId, eventId: e.id, event: e.name })));
    return tx.$queryRaw<{ id: string; subscriptionId: string }[]>`
      INSERT INTO "WebhookDelivery"
        ("id", "id_project", "subscriptionId", "eventId", "event", "status", "attempts", "nextAttemptAt", "createdAt", "updatedAt", "v")
      SELECT x."id", ${projectId}, x."subscriptionId", x."eventId", x."event", 'pending', '[]'::jsonb,
        ${now}::timestamp(3), ${now}::timestamp(3), ${now}::timestamp(3), 0
      FROM jsonb_to_recordset(${JSON.stringify(deliveryRows)}::jsonb)
        AS x("id" text, "subscriptionId" text, "eventId" text, "event" text)
      ON CONFLICT ("subscriptionId", "eventId") DO NOTHING
      RETURNING "id", "subscriptionId"`;
  }

  /** A job's deliveries go to one target, so a slow target holds up its own deliveries only. */
  private async queueFirstAttempts(created: { id: string; subscriptionId: string }[]) {
    if (!created.length) return;
    const bySubscription = new Map<string, string[]>();
    for (const d of created) {
      const ids = bySubscription.get(d.subscriptionId);
      if (ids) ids.push(d.id);
      else bySubscription.set(d.subscriptionId, [d.id]);
    }
    const groups: string[][] = [];
    for (const ids of bySubscription.values()) {
      for (let i = 0; i < ids.length; i += firstAttemptsPerJob) groups.push(ids.slice(i, i + firstAttemptsPerJob));
    }
    await this.queue.enqueueMany(
      firstAttemptsJob,
      groups.map((ids) => ({ data: { deliveryIds: ids }, options: { jobId: `first-${ids[0]}` } })),
    );
  }

  /**
   * Queues pending deliveries again: at start all of them (an embedded restart lost its timers),
   * later those overdue, whose job was lost (a crash between commit and enqueue, a dropped job).
   * Queuing is idempotent by job id.
   */
  async recover({ all }: { all: boolean }) {
    const graceMs = this.config.webhooks.timeoutMs + 60_000;
    const cutoff = new Date(Date.now() - graceMs);
    let after = '';
    for (;;) {
      const pending = await this.db.webhookDelivery.findMany({
        where: { status: 'pending', id: { gt: after }, ...(all ? {} : { nextAttemptAt: { lt: cutoff } }) },
        orderBy: { id: 'asc' },
        take: 500,
        select: { id: true, nextAttemptAt: true },
      });
      if (!pending.length) return;
      after = pending[pending.length - 1].id;
      const now = Date.now();
      await this.queue.enqueueMany(
        deliveryJob,
        pending.map((d) => ({
          data: { deliveryId: d.id },
          options: {
            jobId: d.id,
            delayMs: Math.max(0, (d.nextAttemptAt?.getTime() ?? now) - now),
            replaceFinished: !all,
          },
        })),
      );
      if (!all) this.logger.info({ count: pending.length }, 'overdue webhook deliveries queued again (a no-op for those still queued)');
      if (pending.length < 500 || this.stopped) return;
    }
  }
}
