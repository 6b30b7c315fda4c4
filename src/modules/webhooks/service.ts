import { auditFields } from '../audit/record.js';
import { z } from 'zod';
import type { Config } from '../../config.js';
import { badInput, conflict, notFound, parseInput } from '../../errors.js';
import { targetRefusal } from '../../infra/outbound.js';
import type { Db } from '../../infra/database.js';
import type { EventBus } from '../../infra/event-bus.js';
import type { EventLog } from '../../infra/event-log.js';
import type { BackgroundTask, JobQueue } from '../../infra/job-queue.js';
import type { Logger } from '../../infra/logger.js';
import type { Subscription, WebhookDelivery } from '../../generated/prisma/client.js';
import { listingInput, pageOf } from '../../paging.js';
import { catalogueEntry, customEventPrefix, webhookCatalogue } from './catalogue.js';
import { deliveryJob, WebhookSender } from './delivery.js';
import { subscriptionsChannel, WebhookDispatcher } from './dispatcher.js';
import type { RecordRenderer } from './render.js';
import { newHookSecret, newSecret, schemeOf } from './signature.js';
import { webhookEventTypes, type WebhookEventType } from './event-schemas.js';
import type { Limiters } from '../../infra/rate-limit.js';

export type SubscriptionRecord = Subscription;
/** A subscription as returned by creation and rotation: the only times its secrets are shown. */
export type SubscriptionWithSecret = Subscription & { revealSecret: true };
export type DeliveryRecord = WebhookDelivery;

/** How long the secret replaced by a rotation keeps signing deliveries beside the new one. */
export const rotationOverlapMs = 24 * 60 * 60 * 1000;

const eventName = z
  .string()
  .trim()
  .min(1, 'is required')
  .max(200)
  .refine(
    (name) => !!catalogueEntry(name),
    `must be one of ${Object.keys(webhookCatalogue()).join(', ')} or ${customEventPrefix}<NAME>`,
  );

const target = z
  .string()
  .trim()
  .max(2000)
  .refine((value) => {
    try {
      const url = new URL(value);
      return (url.protocol === 'http:' || url.protocol === 'https:') && !!url.hostname && !url.username && !url.password;
    } catch {
      return false;
    }
  }, 'must be an absolute http(s) URL without credentials');

/** Deliveries a second, at most, to the subscription's target (null: no limit). */
const throttle = z.number().int('must be a whole number of deliveries a second').min(1, 'must be 1 to 10000').max(10_000, 'must be 1 to 10000').nullable();

const createInput = z.object({
  event: eventName,
  target,
  signing: z.enum(['hmac', 'ed25519'], { message: 'must be hmac or ed25519' }).default('hmac'),
  throttle: throttle.optional(),
});
const updateInput = z.object({ event: eventName.optional(), target: target.optional(), enabled: z.boolean().optional(), throttle: throttle.optional() });
const recoverInput = z.object({
  since: z
    .union([z.string(), z.number()], { message: 'must be a date (ISO 8601) or a time in milliseconds' })
    .transform((value) => new Date(typeof value === 'string' && /^\d+$/.test(value.trim()) ? Number(value) : value))
    .refine((date) => !Number.isNaN(date.getTime()), 'must be a date (ISO 8601) or a time in milliseconds')
    .refine((date) => date.getTime() <= Date.now(), 'must not be in the future'),
});
const deliveriesInput = listingInput(['createdAt'], 'createdAt').extend({
  status: z.enum(['pending', 'succeeded', 'failed'], { message: 'must be pending, succeeded or failed' }).optional(),
});

export interface DeliveryPage {
  count: number;
  page: number;
  limit: number;
  deliveries: DeliveryRecord[];
}

export class WebhookService {
  readonly sender: WebhookSender;
  readonly dispatcher: WebhookDispatcher;

  constructor(
    private db: Db,
    private events: EventLog,
    private bus: EventBus,
    private queue: JobQueue,
    private config: Config,
    logger: Logger,
    records: RecordRenderer,
    limiters: Limiters,
  ) {
    this.sender = new WebhookSender(db, events, queue, config, logger, limiters);
    this.dispatcher = new WebhookDispatcher(db, bus, queue, config, logger, () => ({ db, records }));
    this.records = records;
  }

  private records: RecordRenderer;
  private catalogueTypes: WebhookEventType[] | undefined;

  /** The event catalogue with each event's JSON Schema (made once: the schema does not change while running). */
  eventTypes(): WebhookEventType[] {
    return (this.catalogueTypes ??= webhookEventTypes(this.records));
  }

  /** The recovery of lost deliveries, run beside the workers (the dispatcher itself is an event consumer). */
  recoveryTask(): BackgroundTask {
    return { name: 'webhooks.recovery', start: () => this.dispatcher.start() };
  }

  list(projectId: string) {
    return this.db.subscription.findMany({ where: { id_project: projectId }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
  }

  async get(projectId: string, id: string) {
    const subscription = await this.db.subscription.findFirst({ where: { id, id_project: projectId } });
    if (!subscription) throw notFound('subscription');
    return subscription;
  }

  async create(projectId: string, userId: string, input: unknown): Promise<SubscriptionWithSecret> {
    const data = parseInput(createInput, input);
    await this.checkTarget(data.target);
    const subscription = await this.events.transaction(async (tx, emit) => {
      const created = await tx.subscription.create({
        data: {
          id_project: projectId,
          event: data.event,
          target: data.target,
          signingSecret: newSecret(data.signing),
          hookSecret: newHookSecret(),
          throttle: data.throttle ?? null,
          createdBy: userId,
        },
      });
      await emit({ projectId, name: 'subscription.create', subject: created.id, payload: { event: created.event } });
      return created;
    });
    await this.announce(projectId);
    return { ...subscription, revealSecret: true };
  }

  async update(projectId: string, id: string, input: unknown) {
    const data = parseInput(updateInput, input);
    const current = await this.get(projectId, id);
    if (data.target !== undefined) await this.checkTarget(data.target);
    const subscription = await this.events.transaction(async (tx, emit) => {
      const saved = await tx.subscription.update({
        where: { id },
        data: {
          event: data.event,
          target: data.target,
          throttle: data.throttle,
          // Enabling again starts with a clean record.
          ...(data.enabled === true ? { enabled: true, activeSince: new Date(), failingSince: null, disabledAt: null, disabledReason: null } : {}),
          ...(data.enabled === false ? { enabled: false, disabledAt: new Date(), disabledReason: 'disabled by a teammate' } : {}),
        },
      });
      const fields = Object.keys(data);
      await emit({ projectId, name: 'subscription.update', subject: id, payload: { fields }, audit: { before: auditFields(current, fields), after: auditFields(saved, fields) } });
      return saved;
    });
    if (subscription.enabled) await this.announce(projectId);
    return subscription;
  }

  async remove(projectId: string, id: string) {
    const subscription = await this.get(projectId, id);
    await this.events.transaction(async (tx, emit) => {
      await tx.subscription.delete({ where: { id } });
      await emit({ projectId, name: 'subscription.delete', subject: id });
    });
    return subscription;
  }

  /**
   * A new signing key; the old one keeps signing (beside it) for 24 hours so receivers can switch.
   * The legacy `x-hook-secret` value stays: a header carries one value, and it signs nothing.
   */
  async rotateSecret(projectId: string, id: string): Promise<SubscriptionWithSecret> {
    const current = await this.get(projectId, id);
    const subscription = await this.events.transaction(async (tx, emit) => {
      const saved = await tx.subscription.update({
        where: { id },
        data: {
          // A key of the same kind: an ed25519 subscription stays one.
          signingSecret: newSecret(schemeOf(current.signingSecret)),
          previousSigningSecret: current.signingSecret,
          previousSecretEnd: new Date(Date.now() + rotationOverlapMs),
        },
      });
      await emit({ projectId, name: 'subscription.update', subject: id, payload: { fields: ['secret'] } });
      return saved;
    });
    return { ...subscription, revealSecret: true };
  }

  /** The delivery log of a subscription, newest first. */
  async deliveries(projectId: string, id: string, query: unknown): Promise<DeliveryPage> {
    await this.get(projectId, id);
    const listing = parseInput(deliveriesInput, query);
    const where = { id_project: projectId, subscriptionId: id, ...(listing.status ? { status: listing.status } : {}) };
    const [count, deliveries] = await Promise.all([
      this.db.webhookDelivery.count({ where }),
      this.db.webhookDelivery.findMany({ where, ...pageOf(listing) }),
    ]);
    return { count, page: listing.page, limit: listing.limit, deliveries };
  }

  /**
   * Sends a past delivery again now, as one more attempt with the same `webhook-id`, and answers
   * the delivery once that attempt is made: its outcome is the last of `attempts` (at most
   * WEBHOOK_TIMEOUT_MS later).
   */
  async redeliver(projectId: string, id: string, deliveryId: string) {
    const subscription = await this.get(projectId, id);
    if (!subscription.enabled) throw conflict('the subscription is disabled: enable it before redelivering');
    const delivery = await this.db.webhookDelivery.findFirst({ where: { id: deliveryId, subscriptionId: id, id_project: projectId } });
    if (!delivery) throw notFound('delivery');
    await this.sender.deliver({ deliveryId, redelivery: true });
    return (await this.db.webhookDelivery.findFirst({ where: { id: deliveryId, id_project: projectId } })) ?? delivery;
  }

  /** A target the outbound policy refuses (loopback, private, metadata addresses...) is refused when saved, with the reason. */
  private async checkTarget(target: string) {
    const refusal = await targetRefusal(target, this.config.outbound);
    if (refusal) throw badInput('target', `target: refused: ${refusal}`);
  }

  /** Enables a disabled subscription again, with a clean record: events from now on are delivered. */
  enable(projectId: string, id: string) {
    return this.update(projectId, id, { enabled: true });
  }

  /**
   * Sends again every delivery of the subscription that failed since `since` (Svix's recover): one
   * attempt each, as a redelivery, paced by the subscription's throttle. Answers how many.
   */
  async recover(projectId: string, id: string, input: unknown) {
    const { since } = parseInput(recoverInput, input);
    const subscription = await this.get(projectId, id);
    if (!subscription.enabled) throw conflict('the subscription is disabled: enable it before recovering its deliveries');
    const stamp = Date.now();
    let count = 0;
    let after = '';
    for (;;) {
      const failed = await this.db.webhookDelivery.findMany({
        where: { id_project: projectId, subscriptionId: id, status: 'failed', createdAt: { gte: since }, id: { gt: after } },
        orderBy: { id: 'asc' },
        take: 500,
        select: { id: true },
      });
      if (!failed.length) break;
      after = failed[failed.length - 1].id;
      await this.queue.enqueueMany(
        deliveryJob,
        failed.map((d) => ({ data: { deliveryId: d.id, redelivery: true }, options: { jobId: `${d.id}-recover-${stamp}` } })),
      );
      count += failed.length;
      if (failed.length < 500) break;
    }
    return { count, since };
  }

  /** Tells every dispatcher (this node's and the others') that the project's subscriptions changed. */
  private async announce(projectId: string) {
    this.dispatcher.forget(projectId);
    await this.bus.publish(subscriptionsChannel, { projectId });
  }
}
