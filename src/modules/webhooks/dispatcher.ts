import { randomBytes } from 'node:crypto';
import type { Config } from '../../config.js';
import type { Db } from '../../infra/database.js';
import type { EventBus } from '../../infra/event-bus.js';
import { projectChannel, toLogged, type EventRow, type LoggedEvent } from '../../infra/event-log.js';
import type { JobQueue } from '../../infra/job-queue.js';
import type { Logger } from '../../infra/logger.js';
import { catalogueEntry, subscriptionMatches, type RenderTools } from './catalogue.js';
import type { RestRecord } from './render.js';
import { deliveryJob, firstAttemptsJob, firstAttemptsPerJob } from './delivery.js';

// Turns the event log into deliveries. For each project, undispatched events are read in sequence
// order; each event some enabled subscription wants is rendered once, one WebhookDelivery row is
// written per subscription (unique per subscription and event, so a second pass adds nothing),
// the events are marked dispatched in the same transaction, and the new deliveries' first attempts
// are queued, a few deliveries to one subscription per job. It runs on every bus event of a
// watched project, on a periodic sweep and at start; a crash anywhere in between leaves
// undispatched events or pending deliveries, which the next sweep picks up again.

/** Signals, across nodes, that a project has a new subscription to watch. */
export const subscriptionsChannel = 'webhooks:subscriptions';

const batchSize = 200;

let idCounter = 0;
/** A collision-resistant, roughly time-ordered id in the shape of the ids Prisma makes (`c` + 24 base-36 chars). */
function newId(): string {
  idCounter = (idCounter + 1) % 1_679_616;
  const time = Date.now().toString(36).padStart(9, '0').slice(-9);
  const count = idCounter.toString(36).padStart(4, '0');
  const random = BigInt(`0x${randomBytes(8).toString('hex')}`).toString(36).padStart(13, '0').slice(-11);
  return `c${time}${count}${random}`;
}

export class WebhookDispatcher {
  private watched = new Map<string, () => void>();
  private runs = new Map<string, Promise<void>>();
  private again = new Set<string>();
  private stopped = true;

  constructor(
    private db: Db,
    private bus: EventBus,
    private queue: JobQueue,
    private config: Config,
    private logger: Logger,
    private tools: () => RenderTools,
  ) {}

  /** Starts listening and sweeping; the returned function stops both. */
  async start(): Promise<() => Promise<void>> {
    this.stopped = false;
    const unlisten = this.bus.subscribe(subscriptionsChannel, (message) => {
      if (typeof message.projectId === 'string') this.watch(message.projectId);
    });
    const unwatchGaps = this.bus.onGap(() => void this.sweep());
    let sweeping: Promise<void> | undefined;
    const tick = () => {
      sweeping ??= this.sweep().finally(() => (sweeping = undefined));
    };
    const timer = setInterval(tick, this.config.webhooks.sweepIntervalMs);
    timer.unref();
    await this.recover({ all: true }).catch((error) => this.logger.error({ err: error }, 'webhook recovery failed'));
    tick();
    return async () => {
      this.stopped = true;
      clearInterval(timer);
      unlisten();
      unwatchGaps();
      for (const unsubscribe of this.watched.values()) unsubscribe();
      this.watched.clear();
      await sweeping;
      await Promise.allSettled([...this.runs.values()]);
    };
  }

  /** Follows a project's bus channel so its events are dispatched as they happen. */
  watch(projectId: string) {
    if (this.stopped || this.watched.has(projectId)) return;
    this.watched.set(projectId, this.bus.subscribe(projectChannel(projectId), () => void this.dispatch(projectId)));
    void this.dispatch(projectId);
  }

  /** Watches the projects with subscriptions, dispatches every pending event and re-queues lost deliveries. */
  async sweep() {
    try {
      const projects = await this.db.subscription.findMany({ where: { enabled: true }, distinct: ['id_project'], select: { id_project: true } });
      for (const { id_project } of projects) this.watch(id_project);
      const pending = await this.db.$queryRaw<{ id_project: string }[]>`
        SELECT DISTINCT "id_project" FROM "DomainEvent" WHERE "dispatchedAt" IS NULL`;
      for (const { id_project } of pending) await this.dispatch(id_project);
      await this.recover({ all: false });
    } catch (error) {
      this.logger.error({ err: error }, 'webhook sweep failed');
    }
  }

  /** Dispatches a project's pending events; one run per project at a time, rerun if asked meanwhile. */
  dispatch(projectId: string): Promise<void> {
    const running = this.runs.get(projectId);
    if (running) {
      this.again.add(projectId);
      return running;
    }
    const run = (async () => {
      do {
        this.again.delete(projectId);
        while (!this.stopped && (await this.dispatchBatch(projectId)) === batchSize);
      } while (this.again.has(projectId) && !this.stopped);
    })()
      .catch((error) => this.logger.error({ err: error, project: projectId }, 'webhook dispatch failed'))
      .finally(() => this.runs.delete(projectId));
    this.runs.set(projectId, run);
    return run;
  }

  /** One batch of a project's undispatched events; answers how many were read. */
  private async dispatchBatch(projectId: string): Promise<number> {
    const rows = await this.db.$queryRaw<EventRow[]>`
      SELECT "id", "id_project", "seq", "name", "subject", "payload", "createdAt" FROM "DomainEvent"
      WHERE "id_project" = ${projectId} AND "dispatchedAt" IS NULL ORDER BY "seq" LIMIT ${batchSize}`;
    if (!rows.length) return 0;
    const events = rows.map(toLogged);
    const subscriptions = await this.db.subscription.findMany({
      where: { id_project: projectId, enabled: true },
      select: { id: true, event: true, activeSince: true },
    });

    // Who gets what: a subscription receives the events logged while it is enabled.
    const wanted = new Map<string, string[]>();
    for (const event of events) {
      const at = new Date(event.createdAt);
      const ids = subscriptions.filter((s) => s.activeSince <= at && subscriptionMatches(s.event, event.name)).map((s) => s.id);
      if (ids.length && catalogueEntry(event.name)) wanted.set(event.id, ids);
    }

    // Rendered before claiming: rendering reads through the services, outside any transaction.
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

    const created = await this.db.$transaction(async (tx) => {
      // Another dispatcher may hold some of these; it writes their deliveries, we skip them.
      const claimed = await tx.$queryRaw<{ id: string }[]>`
        SELECT "id" FROM "DomainEvent" WHERE "id" = ANY(${events.map((e) => e.id)}) AND "dispatchedAt" IS NULL
        FOR UPDATE SKIP LOCKED`;
      const ids = new Set(claimed.map((c) => c.id));
      const mine = events.filter((e) => ids.has(e.id) && wanted.has(e.id) && payloads.has(e.id));
      const now = new Date().toISOString();
      let deliveries: { id: string; subscriptionId: string }[] = [];
      // Thousands of rows a second: one statement per table, the rows as one JSON parameter.
      if (mine.length) {
        const payloadRows = mine.map((e) => ({ eventId: e.id, name: e.name, payload: payloads.get(e.id), occurredAt: e.createdAt }));
        await tx.$executeRaw`
          INSERT INTO "WebhookPayload" ("eventId", "id_project", "name", "payload", "occurredAt", "createdAt")
          SELECT x."eventId", ${projectId}, x."name", x."payload", x."occurredAt", ${now}::timestamp(3)
          FROM jsonb_to_recordset(${JSON.stringify(payloadRows)}::jsonb)
            AS x("eventId" text, "name" text, "payload" jsonb, "occurredAt" timestamp(3))
          ON CONFLICT DO NOTHING`;
        const deliveryRows = mine.flatMap((e) =>
          wanted.get(e.id)!.map((subscriptionId) => ({ id: newId(), subscriptionId, eventId: e.id, event: e.name })),
        );
        deliveries = await tx.$queryRaw<{ id: string; subscriptionId: string }[]>`
          INSERT INTO "WebhookDelivery"
            ("id", "id_project", "subscriptionId", "eventId", "event", "status", "attempts", "nextAttemptAt", "createdAt", "updatedAt", "v")
          SELECT x."id", ${projectId}, x."subscriptionId", x."eventId", x."event", 'pending', '[]'::jsonb,
            ${now}::timestamp(3), ${now}::timestamp(3), ${now}::timestamp(3), 0
          FROM jsonb_to_recordset(${JSON.stringify(deliveryRows)}::jsonb)
            AS x("id" text, "subscriptionId" text, "eventId" text, "event" text)
          ON CONFLICT ("subscriptionId", "eventId") DO NOTHING
          RETURNING "id", "subscriptionId"`;
      }
      if (ids.size) {
        await tx.domainEvent.updateMany({ where: { id: { in: [...ids] } }, data: { dispatchedAt: new Date(now) } });
      }
      return deliveries;
    });

    if (created.length) {
      // A job's deliveries go to one target, so a slow target holds up its own deliveries only.
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
    return rows.length;
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
