import { z } from 'zod';

// The domain events: every name `emit` may log, with the schema of its payload. `emit`, the
// webhook catalogue, live subscriptions and the bot engine all type-check against this list, so a
// misspelt name does not compile, and an event the webhook catalogue must serve but does not is a
// type error there too (`webhook: true` below).
//
// Payloads are small: identifiers and the names of the changed fields, never whole records (the
// receiver re-reads what it needs). Schemas are open (`looseObject`): a key they do not name may
// still be sent, but a key they name must have its type.

const fields = z.array(z.string());
/** A record changed: which fields. */
const changed = z.looseObject({ fields: fields.optional() });
const none = z.looseObject({});

const request = z.looseObject({
  request_id: z.string(),
  department_id: z.string().nullish(),
  assignment_reason: z.string().nullish(),
  fields: fields.optional(),
  status: z.number().optional(),
});

/** An SLA timer fired: which target of which request, and its deadline. */
const sla = z.looseObject({ request_id: z.string(), target: z.string(), due_at: z.string(), policy_id: z.string() });

interface DomainEventDefinition {
  payload: z.ZodType<Record<string, unknown>>;
  /** Webhook subscriptions may ask for it: the webhook catalogue must render it. */
  webhook?: true;
  /** Recorded in the project's audit log (src/modules/audit) with who did it and from where. */
  audit?: true;
}

export const domainEvents = {
  'project.update': { payload: changed, audit: true },
  /** The owner deleted the project: it answers 404 from now on and a job removes its data. */
  'project.delete': { payload: none, audit: true },
  'project_user.invite': { payload: z.looseObject({ pending: z.boolean().optional() }), webhook: true, audit: true },
  'project_user.update': { payload: changed, webhook: true, audit: true },
  'project_user.delete': { payload: none, webhook: true, audit: true },
  /** A teammate's first messaging app opened, or the last one closed. */
  'project_user.presence': { payload: z.looseObject({ presence: z.string() }), webhook: true },
  'api_key.create': { payload: z.looseObject({ role: z.string().optional() }), audit: true },
  'api_key.revoke': { payload: none, audit: true },
  'department.create': { payload: none, webhook: true },
  'department.update': { payload: changed, webhook: true },
  'department.delete': { payload: none, webhook: true, audit: true },
  'group.create': { payload: none },
  'group.update': { payload: changed },
  'group.delete': { payload: none, audit: true },
  'tag.create': { payload: none },
  'tag.update': { payload: changed },
  'tag.delete': { payload: none, audit: true },
  'canned.create': { payload: none },
  'canned.update': { payload: changed },
  'canned.delete': { payload: none, audit: true },
  'label.create': { payload: z.looseObject({ lang: z.string() }) },
  'label.update': { payload: z.looseObject({ lang: z.string(), default: z.boolean().optional() }) },
  'label.delete': { payload: z.looseObject({ lang: z.string() }), audit: true },
  'file.create': { payload: z.looseObject({ path: z.string() }) },
  'file.delete': { payload: z.looseObject({ path: z.string() }), audit: true },
  'lead.create': { payload: z.looseObject({ lead_id: z.string().optional() }), webhook: true },
  'lead.update': { payload: changed, webhook: true },
  'lead.delete': { payload: none, audit: true },
  'segment.create': { payload: none },
  'segment.update': { payload: changed },
  'segment.delete': { payload: none, audit: true },
  'bot.create': { payload: none, webhook: true },
  'bot.update': { payload: z.looseObject({ fields: fields.optional(), intents: z.unknown().optional() }), webhook: true },
  'bot.delete': { payload: none, webhook: true, audit: true },
  'intent.create': { payload: z.looseObject({ id_faq_kb: z.string() }) },
  'intent.update': { payload: z.looseObject({ id_faq_kb: z.string(), fields: fields.optional() }) },
  'intent.delete': { payload: z.looseObject({ id_faq_kb: z.string() }), audit: true },
  'request.create': { payload: request, webhook: true },
  'request.update': { payload: request, webhook: true },
  'request.close': { payload: request, webhook: true },
  'request.delete': { payload: z.looseObject({ request_id: z.string() }), audit: true },
  /** Other requests of the same person moved into this one (`from`: their ids), each closed with a pointer to it. */
  'request.merge': { payload: z.looseObject({ request_id: z.string(), from: z.array(z.string()) }), webhook: true, audit: true },
  /** A lead's erasure: their conversations, messages, files and learned phrasings removed. */
  'lead.erase': { payload: z.looseObject({ requests: z.number(), messages: z.number(), files: z.number() }), audit: true },
  /** Everything held about a lead was exported. */
  'lead.export': { payload: none, audit: true },
  /** Closed conversations past the project's retention removed (a run of the retention job). */
  'retention.purge': { payload: z.looseObject({ requests: z.number() }), audit: true },
  /** The conversations report was exported as CSV. */
  'report.export': { payload: z.looseObject({ format: z.string() }), audit: true },
  /** A teammate read a request up to now (PUT .../seen): their own consoles' unread counts follow. */
  'request.seen': { payload: z.looseObject({ request_id: z.string(), id_user: z.string() }) },
  /** What a bot, a live subscription and the webhook dispatcher need to know without a read. */
  'message.create': {
    payload: z.looseObject({ request_id: z.string().nullish(), sender: z.string(), hidden: z.boolean().optional() }),
    webhook: true,
  },
  'message.update': {
    payload: z.looseObject({ request_id: z.string(), receipt: z.unknown().optional(), by: z.string().optional(), hidden: z.boolean().optional() }),
  },
  /** A scheduled message was not sent: its conversation closed (or went) meanwhile, or its author left. */
  'message.scheduled_skipped': {
    payload: z.looseObject({ request_id: z.string(), scheduled_message_id: z.string(), by: z.string(), reason: z.string() }),
  },
  'sla_policy.create': { payload: none, audit: true },
  'sla_policy.update': { payload: changed, audit: true },
  'sla_policy.delete': { payload: none, audit: true },
  /** What a request shows of its SLA changed: its policy, a deadline, or a target met (src/modules/sla/tracker.ts). */
  'sla.update': { payload: z.looseObject({ request_id: z.string() }) },
  /** 80% of an SLA target's time went by with the target not met (subject: the request). */
  'sla.warning': { payload: sla, webhook: true },
  /** An SLA target was missed (subject: the request); once per target and deadline. */
  'sla.breach': { payload: sla, webhook: true },
  'kb.namespace.create': { payload: z.looseObject({ default: z.boolean().optional() }) },
  'kb.namespace.update': { payload: changed },
  'kb.namespace.delete': {
    payload: z.looseObject({ namespace: z.string(), contents_only: z.boolean().optional(), contents: z.number().optional() }),
    audit: true,
  },
  'kb.content.status': { payload: z.looseObject({ namespace: z.string(), status: z.number(), error: z.string().optional() }) },
  'kb.content.indexed': { payload: z.looseObject({ namespace: z.string(), chunks: z.number() }), webhook: true },
  'kb.content.delete': { payload: z.looseObject({ namespace: z.string() }), audit: true },
  /** The knowledge loop (src/modules/assistant/proposals.ts): a proposal edited, accepted (as FAQ content) or dismissed. */
  'kb.proposal.update': { payload: changed },
  'kb.proposal.accept': { payload: z.looseObject({ content_id: z.string(), namespace: z.string() }) },
  'kb.proposal.dismiss': { payload: none },
  'subscription.create': { payload: z.looseObject({ event: z.string() }), audit: true },
  'subscription.update': { payload: changed, audit: true },
  'subscription.delete': { payload: none, audit: true },
  'subscription.disabled': { payload: z.looseObject({ reason: z.string() }), webhook: true },
} as const satisfies Record<string, DomainEventDefinition>;

export const customEventPrefix = 'event.emit.';
/** A custom event a client fired (`POST /events`), logged as `event.emit.<NAME>`. */
export type CustomEventName = `${typeof customEventPrefix}${string}`;
const customEventPayload = z.looseObject({ project_user: z.string().optional() });

export type CataloguedEventName = keyof typeof domainEvents;
export type DomainEventName = CataloguedEventName | CustomEventName;

/** The events webhook subscriptions may ask for (custom events aside). */
export type WebhookEventName = {
  [N in CataloguedEventName]: (typeof domainEvents)[N] extends { webhook: true } ? N : never;
}[CataloguedEventName];

export type EventPayload<N extends DomainEventName> = N extends CataloguedEventName
  ? z.input<(typeof domainEvents)[N]['payload']>
  : z.input<typeof customEventPayload>;

/** An event to log: one variant per name, so the payload is checked against the name's schema. */
export type DomainEventInput = {
  [N in DomainEventName]: {
    projectId: string;
    name: N;
    /** Identifier of the record the event is about. */
    subject: string;
    payload?: EventPayload<N>;
    /** For an audited event: the record before and after the change (never a secret), kept in the audit log only. */
    audit?: AuditDetail;
  };
}[DomainEventName];

/** What an audited change adds to its audit entry (src/modules/audit). */
export interface AuditDetail {
  before?: unknown;
  after?: unknown;
}

/** Whether the audit log records an event. */
export function isAuditedEvent(name: string): boolean {
  return Object.hasOwn(domainEvents, name) && (domainEvents[name as CataloguedEventName] as DomainEventDefinition).audit === true;
}

export function isCustomEventName(name: string): name is CustomEventName {
  return name.startsWith(customEventPrefix) && name.length > customEventPrefix.length;
}

export function isDomainEventName(name: string): name is DomainEventName {
  return Object.hasOwn(domainEvents, name) || isCustomEventName(name);
}

/** The schema an event's payload must satisfy, or undefined for a name nobody emits. */
export function payloadSchema(name: string): z.ZodType<Record<string, unknown>> | undefined {
  if (isCustomEventName(name)) return customEventPayload;
  return Object.hasOwn(domainEvents, name) ? domainEvents[name as CataloguedEventName].payload : undefined;
}

/** A logged event's payload, read as its name's schema says (for readers that rely on its keys). */
export function eventPayload<N extends DomainEventName>(event: { name: N; payload: unknown }): EventPayload<N> | null {
  const parsed = payloadSchema(event.name)?.safeParse(event.payload);
  return parsed?.success ? (parsed.data as EventPayload<N>) : null;
}
