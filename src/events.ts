import { z } from 'zod';
import type { Db } from './infra/database.js';

// The domain events. Each module declares its own in its `events.ts` with `defineEvents` (name,
// payload schema, whether webhooks may ask for it and the record it is about, whether the audit
// log records it) and adds them to `DomainEventRegistry` below, so `emit`, the webhook catalogue,
// live subscriptions and the bot engine all type-check against every module's names: a misspelt
// name does not compile.
//
// Payloads are small: identifiers and the names of the changed fields, never whole records (the
// receiver re-reads what it needs). Schemas are open (`looseObject`): a key they do not name may
// still be sent, but a key they name must have its type.

const fields = z.array(z.string());
/** A record changed: which fields. */
export const changedPayload = z.looseObject({ fields: fields.optional() });
export const emptyPayload = z.looseObject({});
export const changedFields = fields;

type Row = { id: string } & Record<string, unknown>;
/** Reads the records of some ids of one project (the subjects of a burst of events). */
export type RecordLoader = (db: Db, projectId: string, ids: string[]) => Promise<Row[]>;

/** The record an event is about, as webhooks deliver it: rendered through its GraphQL type, as REST shows it. */
export interface EventRecord {
  type: string;
  load: RecordLoader;
}

type FindMany = { findMany(args: unknown): Promise<Row[]> };

/**
 * The rows of a Prisma model (its delegate's name: `request`, `projectUser`) by id within one
 * project; `include` for relations the type renders from.
 */
export function projectRecords(type: string, model: string, include?: Record<string, true>): EventRecord {
  return {
    type,
    load: (db, projectId, ids) =>
      (db as unknown as Record<string, FindMany>)[model].findMany({ where: { id_project: projectId, id: { in: ids } }, ...(include ? { include } : {}) }),
  };
}

/** What a webhook subscription to an event receives, and how the catalogue describes it. */
export interface WebhookDefinition {
  description: string;
  /** The record the payload is; several when the payload says which (`pick`). */
  record: EventRecord | readonly EventRecord[];
  /** For several records: the index of the one an event is about, from its payload. */
  pick?: (payload: Record<string, unknown>) => number;
  /** Keys of the event's payload added to the record (as `key: { from, schema }`), with their JSON Schemas. */
  extra?: Record<string, { from: string; schema: Record<string, unknown> }>;
}

export interface DomainEventDefinition {
  payload: z.ZodType<Record<string, unknown>>;
  /** Webhook subscriptions may ask for it: what they receive. */
  webhook?: WebhookDefinition;
  /** Recorded in the project's audit log (src/modules/audit) with who did it and from where. */
  audit?: true;
}

/**
 * Every module's events, by name: each module's `events.ts` adds its own, as
 * `declare module '../../events.js' { interface DomainEventRegistry extends TagEvents {} }`.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface DomainEventRegistry {}

const registry = new Map<string, DomainEventDefinition>();

/** Declares a module's events: registered for the lookups below, and typed as given. */
export function defineEvents<const T extends Record<string, DomainEventDefinition>>(definitions: T): T {
  for (const [name, definition] of Object.entries(definitions)) {
    if (registry.has(name) && registry.get(name) !== definition) throw new Error(`event ${name} is declared twice`);
    registry.set(name, definition);
  }
  return definitions;
}

type RecordEvents<R extends string> = { [K in `${R}.create` | `${R}.update` | `${R}.delete`]: K extends `${R}.update` ? { payload: typeof changedPayload } : K extends `${R}.delete` ? { payload: typeof emptyPayload; audit: true } : { payload: typeof emptyPayload } };

/** A record's `<record>.create`, `.update` (with the changed fields) and `.delete` (audited), for records no webhook asks for. */
export function recordEvents<const R extends string>(record: R): RecordEvents<R> {
  return {
    [`${record}.create`]: { payload: emptyPayload },
    [`${record}.update`]: { payload: changedPayload },
    [`${record}.delete`]: { payload: emptyPayload, audit: true },
  } as RecordEvents<R>;
}

/** Every declared event with its definition (the modules' events files loaded so far). */
export function eventDefinitions(): ReadonlyMap<string, DomainEventDefinition> {
  return registry;
}

export const customEventPrefix = 'event.emit.';
/** A custom event a client fired (`POST /events`), logged as `event.emit.<NAME>`. */
export type CustomEventName = `${typeof customEventPrefix}${string}`;
const customEventPayload = z.looseObject({ project_user: z.string().optional() });

export type CataloguedEventName = keyof DomainEventRegistry & string;
export type DomainEventName = CataloguedEventName | CustomEventName;

/** The events webhook subscriptions may ask for (custom events aside). */
export type WebhookEventName = {
  [N in CataloguedEventName]: DomainEventRegistry[N] extends { webhook: WebhookDefinition } ? N : never;
}[CataloguedEventName];

export type EventPayload<N extends DomainEventName> = N extends CataloguedEventName
  ? DomainEventRegistry[N] extends { payload: infer P extends z.ZodType } ? z.input<P> : never
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
  return registry.get(name)?.audit === true;
}

export function isCustomEventName(name: string): name is CustomEventName {
  return name.startsWith(customEventPrefix) && name.length > customEventPrefix.length;
}

export function isDomainEventName(name: string): name is DomainEventName {
  return registry.has(name) || isCustomEventName(name);
}

/** The schema an event's payload must satisfy, or undefined for a name nobody emits. */
export function payloadSchema(name: string): z.ZodType<Record<string, unknown>> | undefined {
  if (isCustomEventName(name)) return customEventPayload;
  return registry.get(name)?.payload;
}

/** A logged event's payload, read as its name's schema says (for readers that rely on its keys). */
export function eventPayload<N extends DomainEventName>(event: { name: N; payload: unknown }): EventPayload<N> | null {
  const parsed = payloadSchema(event.name)?.safeParse(event.payload);
  return parsed?.success ? (parsed.data as EventPayload<N>) : null;
}
