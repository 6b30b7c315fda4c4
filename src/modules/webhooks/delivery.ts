import type { Config } from '../../config.js';
import { Prisma, type Subscription } from '../../generated/prisma/client.js';
import type { Db } from '../../infra/database.js';
import type { EventLog } from '../../infra/event-log.js';
import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';
import { jobType, RetryJobError, type JobQueue } from '../../infra/job-queue.js';
import type { Limiters } from '../../infra/rate-limit.js';
import type { Logger } from '../../infra/logger.js';
import { OutboundRefusedError, OutboundTimeoutError, safeFetch, type OutboundResponse } from '../../infra/outbound.js';
import { Batch } from './batch.js';
import { signedHeaders } from './signature.js';
import { hookRecord } from './render.js';

// Sends one delivery (one event to one subscription) and records the attempt. The delivery id is
// the `webhook-id`: it is the same on every attempt, so receivers dedupe on it (at-least-once).

/** One delivery's attempt: a retry, a redelivery, or a first attempt whose job was lost. */
export const deliveryJob = jobType(
  'webhooks.deliver',
  z.object({
    deliveryId: z.string().min(1),
    /** A manual redelivery: one attempt, outside the retry schedule. */
    redelivery: z.boolean().optional(),
    /** The time (ms) the subscription's `throttle` reserved for this attempt: it is not paced again. */
    slot: z.number().optional(),
  }),
);
/** The first attempts of a few new deliveries to one subscription (see `WebhookSender.deliverFirst`). */
export const firstAttemptsJob = jobType('webhooks.deliver-first', z.object({ deliveryIds: z.array(z.string().min(1)).min(1) }));
/** New deliveries per first-attempts job. */
export const firstAttemptsPerJob = 8;
/** How early a retry's job may run (queues' delays and clocks across nodes are not exact). */
const earlyAttemptToleranceMs = 1000;
/** A throttled attempt this close to its slot waits in its job; a later one gets a job of its own, due then. */
const throttleWaitInJobMs = 1000;

/** Why an attempt failed, for the delivery log (`reason`); `error` says it in words. */
export type FailureReason =
  | 'http_error'
  | 'rate_limited'
  | 'unavailable'
  | 'gone'
  | 'timeout'
  | 'connection'
  | 'refused'
  | 'disabled'
  | 'no_attempts_left';

/**
 * The delay a `Retry-After` header asks for (seconds, or an HTTP date), within [1 s, `max`];
 * undefined when absent or unreadable.
 */
export function retryAfterMs(value: string | null, max: number, now = Date.now()): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  const ms = /^\d+$/.test(trimmed) ? Number(trimmed) * 1000 : Date.parse(trimmed) - now;
  if (!Number.isFinite(ms)) return undefined;
  return Math.min(max, Math.max(1000, ms));
}

export type DeliveryJob = z.infer<typeof deliveryJob.data>;

export interface AttemptRecord {
  at: string;
  /** 1-based number among automatic attempts; null for a redelivery. */
  attempt: number | null;
  statusCode: number | null;
  durationMs: number;
  error: string | null;
  /** Why it failed (null for a success): see FailureReason. */
  reason?: FailureReason | null;
  /** The first kilobyte of the response body. */
  response: string | null;
  redelivery: boolean;
}

export const responseBytesKept = 1024;

type Outcome = 'succeeded' | 'gone' | 'refused' | 'retry';

type SubscriptionRow = Omit<Subscription, 'activeSince'>;
interface PendingRecord {
  id: string;
  status: string;
  nextAttemptAt: Date | null;
  attempt: AttemptRecord;
}
type LoadedRow = { id: string; status: string; nextAttemptAt: Date | null; payload: string; occurredAt: Date; automaticAttempts: number } & {
  [K in keyof SubscriptionRow as `s_${K & string}`]: SubscriptionRow[K];
};
interface LoadedDelivery {
  id: string;
  status: string;
  nextAttemptAt: Date | null;
  /** The rendered record, as JSON text. */
  payload: string;
  occurredAt: Date;
  automaticAttempts: number;
  subscription: SubscriptionRow;
}

export class WebhookSender {
  constructor(
    private db: Db,
    private events: EventLog,
    private queue: JobQueue,
    private config: Config,
    private logger: Logger,
    private limiters: Limiters,
  ) {}

  get maxAttempts() {
    return this.config.webhooks.retryScheduleMs.length + 1;
  }

  /** Delay before the attempt after attempt `n` (1-based), jitter of up to +20% included. */
  retryDelayMs(n: number): number {
    const base = this.config.webhooks.retryScheduleMs[Math.min(n, this.maxAttempts - 1) - 1] ?? 0;
    return Math.round(base * (1 + Math.random() * 0.2));
  }

  private loads = new Batch<string, LoadedDelivery | undefined>((ids) => this.loadMany(ids));
  private records = new Batch<PendingRecord, void>(async (records) => {
    await this.recordMany(records);
    return records.map(() => undefined);
  });

  /** Deliveries with their subscription and payload, in one round trip. */
  private async loadMany(ids: string[]): Promise<Array<LoadedDelivery | undefined>> {
    const rows = await this.db.$queryRaw<LoadedRow[]>`
      SELECT d."id", d."status", d."nextAttemptAt", p."payload"::text AS "payload", p."occurredAt",
        (SELECT count(*) FROM jsonb_array_elements(d."attempts") a WHERE NOT coalesce((a->>'redelivery')::boolean, false))::int AS "automaticAttempts",
        s."id" AS "s_id", s."id_project" AS "s_id_project", s."event" AS "s_event", s."target" AS "s_target",
        s."secret" AS "s_signingSecret", s."previousSecret" AS "s_previousSigningSecret", s."previousSecretEnd" AS "s_previousSecretEnd",
        s."hookSecret" AS "s_hookSecret", s."throttle" AS "s_throttle",
        s."enabled" AS "s_enabled", s."failingSince" AS "s_failingSince", s."disabledAt" AS "s_disabledAt",
        s."disabledReason" AS "s_disabledReason", s."createdBy" AS "s_createdBy", s."createdAt" AS "s_createdAt",
        s."updatedAt" AS "s_updatedAt", s."v" AS "s_v"
      FROM "WebhookDelivery" d
      JOIN "Subscription" s ON s."id" = d."subscriptionId"
      JOIN "WebhookPayload" p ON p."eventId" = d."eventId"
      WHERE d."id" = ANY(${ids})`;
    const byId = new Map(rows.map((row) => [row.id, row]));
    return ids.map((id) => {
      const row = byId.get(id);
      if (!row) return undefined;
      const subscription = Object.fromEntries(
        Object.entries(row).filter(([k]) => k.startsWith('s_')).map(([k, v]) => [k.slice(2), v]),
      ) as unknown as SubscriptionRow;
      return {
        id,
        status: row.status,
        nextAttemptAt: row.nextAttemptAt,
        payload: row.payload,
        occurredAt: row.occurredAt,
        automaticAttempts: row.automaticAttempts,
        subscription,
      };
    });
  }

  /**
   * Appends attempts in place (a redelivery beside a retry keeps both) and sets each delivery's
   * state, from its attempt's outcome, only over the state that attempt started from: an automatic
   * attempt's failure (a retry, a failure) is recorded in the log but leaves the state alone once
   * the delivery succeeded, or when another automatic attempt was recorded meanwhile (two copies of
   * one delivery's job sent it at once: a sweep beside a slow first attempt). Several records of one
   * delivery in a batch are applied in order, one statement each.
   */
  private async recordMany(records: PendingRecord[]) {
    const rounds: PendingRecord[][] = [];
    const seen = new Map<string, number>();
    for (const r of records) {
      const round = seen.get(r.id) ?? 0;
      seen.set(r.id, round + 1);
      (rounds[round] ??= []).push(r);
    }
    for (const round of rounds) {
      const rows = round.map((r) => ({
        id: r.id,
        status: r.status,
        next: r.nextAttemptAt?.toISOString() ?? null,
        attempts: [r.attempt],
        // The automatic attempts recorded when this one started (none to check for a redelivery).
        before: r.attempt.attempt === null || r.attempt.redelivery ? null : r.attempt.attempt - 1,
      }));
      // An automatic attempt that did not succeed leaves the state as it is when the delivery
      // succeeded or another automatic attempt was recorded since it began. (A redelivery, asked
      // for by hand, always sets it: its outcome is the delivery's latest.)
      const keep = Prisma.sql`(x."before" IS NOT NULL AND x."status" <> 'succeeded' AND (d."status" = 'succeeded' OR x."before" <> (
        SELECT count(*) FROM jsonb_array_elements(d."attempts") a WHERE NOT coalesce((a->>'redelivery')::boolean, false))))`;
      await this.db.$executeRaw`
        UPDATE "WebhookDelivery" AS d
        SET "status" = CASE WHEN ${keep} THEN d."status" ELSE x."status" END,
            "nextAttemptAt" = CASE WHEN ${keep} THEN d."nextAttemptAt" ELSE x."next" END,
            "attempts" = d."attempts" || x."attempts",
            "updatedAt" = ${new Date()}, "v" = d."v" + 1
        FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
          AS x("id" text, "status" text, "next" timestamp(3), "attempts" jsonb, "before" int)
        WHERE d."id" = x."id"`;
    }
  }

  /**
   * The first attempts of new deliveries to one subscription, all at once, in one job: a job per
   * delivery cost the queue (a Redis script to take it, one to finish it) a third of what a
   * delivery costs. Each delivery that asks for a retry gets a job of its own, under its id, after
   * the delay its attempt chose. A delivery attempted already (this job run again after a crash or
   * an error) is left alone: its own job, or the sweep of overdue deliveries, carries it on. An
   * error other than a retry fails the job once all are done, so the queue runs it again for the
   * deliveries not yet attempted.
   */
  async deliverFirst(deliveryIds: string[]): Promise<void> {
    const errors: unknown[] = [];
    await Promise.all(
      deliveryIds.map(async (deliveryId) => {
        try {
          await this.deliver({ deliveryId }, { firstOnly: true });
        } catch (error) {
          if (!(error instanceof RetryJobError)) return void errors.push(error);
          await this.queue.enqueue(deliveryJob, { deliveryId }, { jobId: deliveryId, delayMs: error.delayMs }).catch((failure) => errors.push(failure));
        }
      }),
    );
    if (errors.length) throw errors[0];
  }

  /** One attempt of a delivery; with `firstOnly`, only if none was made yet. */
  async deliver(job: DeliveryJob, { firstOnly = false } = {}): Promise<void> {
    const delivery = await this.loads.call(job.deliveryId);
    // Gone with its subscription, or settled by an earlier copy of this job.
    if (!delivery || (!job.redelivery && delivery.status !== 'pending')) return;
    if (firstOnly && delivery.automaticAttempts > 0) return;
    let now = new Date();
    // A job that comes before its attempt is due waits for it. Two jobs can carry one delivery: a
    // job queued again by the sweep (under the delivery's id) beside its first-attempts job; when
    // the first attempt then fails, its retry's job id is the one already taken, by a job due now.
    const untilDue = (delivery.nextAttemptAt?.getTime() ?? 0) - now.getTime();
    if (!job.redelivery && untilDue > earlyAttemptToleranceMs) {
      throw new RetryJobError(`webhook delivery ${delivery.id} is not due for ${untilDue} ms`, untilDue);
    }
    const { subscription } = delivery;
    const attempt = job.redelivery ? null : delivery.automaticAttempts + 1;

    if (!subscription.enabled || (attempt !== null && attempt > this.maxAttempts)) {
      const error = subscription.enabled ? 'not sent: no attempts left' : 'not sent: the subscription is disabled';
      const reason: FailureReason = subscription.enabled ? 'no_attempts_left' : 'disabled';
      await this.record(delivery.id, 'failed', null, { at: now.toISOString(), attempt, statusCode: null, durationMs: 0, error, reason, response: null, redelivery: !!job.redelivery });
      return;
    }
    if (subscription.throttle && job.slot === undefined) {
      if (!(await this.paced(delivery.id, subscription.id, subscription.throttle, job))) return;
      // The attempt is logged at its sending time, after its wait.
      now = new Date();
    }

    // The stored payload is spliced in as JSON text: no parse and re-stringify per delivery.
    const body = `{"timestamp":${delivery.occurredAt.getTime()},"payload":${delivery.payload},"hook":${JSON.stringify(hookRecord(subscription))}}`;
    const keys = [subscription.signingSecret];
    if (subscription.previousSigningSecret && subscription.previousSecretEnd && subscription.previousSecretEnd > now) {
      keys.push(subscription.previousSigningSecret);
    }
    const headers = {
      'content-type': 'application/json',
      'user-agent': 'support-platform-webhooks/3',
      ...signedHeaders(keys, delivery.id, Math.floor(now.getTime() / 1000), body),
      // For receivers written against the legacy header: a value of its own, which signs nothing,
      // since whoever sees one delivery sees it.
      'x-hook-secret': subscription.hookSecret,
    };

    let outcome: Outcome;
    let response: OutboundResponse | undefined;
    let error: string | null = null;
    let reason: FailureReason | null = null;
    /** Asked by the target (Retry-After on 429 or 503), bounded. */
    let askedDelayMs: number | undefined;
    const started = performance.now();
    try {
      response = await safeFetch(
        subscription.target,
        { method: 'POST', headers, body, timeoutMs: this.config.webhooks.timeoutMs, maxResponseBytes: responseBytesKept },
        this.config.outbound,
      );
      if (response.status >= 200 && response.status < 300) outcome = 'succeeded';
      else if (response.status === 410) {
        outcome = 'gone';
        reason = 'gone';
        error = 'HTTP 410 Gone: the target asked for no more deliveries; the subscription is disabled';
      } else {
        outcome = 'retry';
        reason = response.status === 429 ? 'rate_limited' : response.status === 503 ? 'unavailable' : 'http_error';
        error = `HTTP ${response.status}`;
        if (reason !== 'http_error') {
          askedDelayMs = retryAfterMs(response.headers.get('retry-after'), this.config.webhooks.maxRetryAfterMs, now.getTime());
          if (askedDelayMs !== undefined) error += ` with Retry-After: next attempt in ${Math.round(askedDelayMs / 1000)} s`;
        }
      }
    } catch (failure) {
      if (failure instanceof OutboundRefusedError) {
        outcome = 'refused';
        reason = 'refused';
        error = `refused: ${failure.message}`;
      } else if (failure instanceof OutboundTimeoutError) {
        outcome = 'retry';
        reason = 'timeout';
        error = `timeout: ${failure.message}`;
      } else {
        outcome = 'retry';
        reason = 'connection';
        const code = (failure as NodeJS.ErrnoException).code;
        error = `connection: ${code ? `${code} ` : ''}${(failure as Error).message}`.trim();
      }
    }

    const entry: AttemptRecord = {
      at: now.toISOString(),
      attempt,
      statusCode: response?.status ?? null,
      durationMs: response?.durationMs ?? Math.round(performance.now() - started),
      error,
      reason,
      response: response ? response.body.toString('utf8') : null,
      redelivery: !!job.redelivery,
    };

    if (outcome === 'succeeded') {
      await this.record(delivery.id, 'succeeded', null, entry);
      if (subscription.failingSince) {
        await this.db.subscription.updateMany({ where: { id: subscription.id, failingSince: { not: null } }, data: { failingSince: null } });
      }
      return;
    }
    if (outcome === 'gone') {
      await this.record(delivery.id, job.redelivery && delivery.status === 'succeeded' ? 'succeeded' : 'failed', null, entry);
      await this.disable(subscription.id, subscription.id_project, 'the target answered 410 Gone');
      return;
    }

    const failingSince = subscription.failingSince ?? now;
    if (!subscription.failingSince) {
      await this.db.subscription.updateMany({ where: { id: subscription.id, failingSince: null }, data: { failingSince: now } });
    }
    const failingTooLong = now.getTime() - failingSince.getTime() >= this.config.webhooks.disableAfterMs;

    if (job.redelivery) {
      // A failed redelivery leaves a delivery that is still being retried to its schedule.
      await this.record(delivery.id, delivery.status === 'pending' ? 'pending' : 'failed', delivery.nextAttemptAt, entry);
    } else if (outcome === 'retry' && attempt! < this.maxAttempts && !failingTooLong) {
      const delayMs = askedDelayMs ?? this.retryDelayMs(attempt!);
      await this.record(delivery.id, 'pending', new Date(Date.now() + delayMs), entry);
      throw new RetryJobError(`webhook delivery ${delivery.id} attempt ${attempt} failed: ${error}`, delayMs);
    } else {
      await this.record(delivery.id, 'failed', null, entry);
    }
    if (failingTooLong) {
      await this.disable(subscription.id, subscription.id_project, `failing since ${failingSince.toISOString()}`);
    }
  }

  /**
   * Paces the subscription's deliveries to `throttle` a second, across nodes: answers true when
   * this attempt may go now (after waiting up to a second for its slot); otherwise the attempt has
   * a job of its own at its slot, the delivery is due then, and this job is done with it.
   */
  private async paced(deliveryId: string, subscriptionId: string, throttle: number, job: DeliveryJob): Promise<boolean> {
    const slot = await this.limiters.reserveSlot('webhook-throttle', subscriptionId, Math.ceil(1000 / throttle));
    const wait = slot - Date.now();
    if (wait <= throttleWaitInJobMs) {
      if (wait > 0) await sleep(wait);
      return true;
    }
    if (!job.redelivery) {
      await this.db.webhookDelivery.updateMany({ where: { id: deliveryId, status: 'pending' }, data: { nextAttemptAt: new Date(slot) } });
    }
    await this.queue.enqueue(deliveryJob, { ...job, slot }, { jobId: `${deliveryId}-slot-${slot}`, delayMs: wait });
    return false;
  }

  private record(id: string, status: string, nextAttemptAt: Date | null, attempt: AttemptRecord) {
    return this.records.call({ id, status, nextAttemptAt, attempt });
  }

  /** Disables a subscription once, recording a `subscription.disabled` event. */
  private async disable(subscriptionId: string, projectId: string, reason: string) {
    await this.events.transaction(async (tx, emit) => {
      const { count } = await tx.subscription.updateMany({
        where: { id: subscriptionId, enabled: true },
        data: { enabled: false, disabledAt: new Date(), disabledReason: reason },
      });
      if (count) await emit({ projectId, name: 'subscription.disabled', subject: subscriptionId, payload: { reason } });
    });
    this.logger.warn({ subscription: subscriptionId, reason }, 'webhook subscription disabled');
  }
}
