import type { Db } from '../../infra/database.js';
import type { LoggedEvent } from '../../infra/event-log.js';
import { type RecordRenderer, type RestRecord } from './render.js';
import { restRecord } from '../../rest/shape.js';
import {
  customEventPrefix,
  eventDefinitions,
  isCustomEventName,
  projectRecords,
  type DomainEventName,
  type EventRecord,
  type WebhookDefinition,
  type WebhookEventName,
} from '../../events.js';

// The webhook event catalogue: the names a subscription may ask for and how each event's payload
// is rendered. A payload is the record the event is about, as REST returns it, made from the
// event's declaration (its module's events.ts: `webhook.record`, a GraphQL type and how to load
// its rows): a module that declares a webhook event gets its catalogue entry, its payload's JSON
// Schema and its deliveries with no line here. Renderers batch: a burst of events of one name
// costs one query per table.

export interface RenderTools {
  db: Db;
  records: RecordRenderer;
}

/** Renders the payloads of events that share a name, keyed by event id. */
export type Renderer = (events: LoggedEvent[], tools: RenderTools) => Promise<Map<string, RestRecord>>;

export interface CatalogueEntry {
  description: string;
  render: Renderer;
  /** The GraphQL types `render` renders records through: the payload's JSON Schema is made from them (event-schemas.ts). */
  types: readonly string[];
  /** Properties `render` adds to the record, with their JSON Schemas. */
  extra?: Record<string, Record<string, unknown>>;
}

/** The record is gone (a hard delete): the receiver still learns which one. */
function identifiers(event: LoggedEvent): RestRecord {
  return { _id: event.subject, id: event.subject, id_project: event.projectId, deleted: true };
}

function byProject(events: LoggedEvent[]) {
  const groups = new Map<string, LoggedEvent[]>();
  for (const event of events) {
    const group = groups.get(event.projectId) ?? [];
    group.push(event);
    groups.set(event.projectId, group);
  }
  return groups;
}

/**
 * Loads the subjects and renders each through its GraphQL type, as its REST routes show it (from
 * the row if the type is gone); a missing row becomes its identifiers.
 */
function typed({ type, load }: EventRecord): Renderer {
  return async (events, { db, records }) => {
    const out = new Map<string, RestRecord>();
    for (const [projectId, group] of byProject(events)) {
      const rows = await load(db, projectId, [...new Set(group.map((e) => e.subject))]);
      const found = new Map(rows.map((r) => [r.id, r]));
      for (const event of group) {
        const row = found.get(event.subject);
        const record = row && (records.hasType(type) ? await records.render(type, row) : (restRecord(row) as RestRecord));
        out.set(event.id, record || identifiers(event));
      }
    }
    return out;
  };
}

/** The renderer of an event's webhook: its record (the one `pick` names), plus the payload keys `extra` names. */
function webhookRenderer(webhook: WebhookDefinition): Renderer {
  const records = Array.isArray(webhook.record) ? (webhook.record as readonly EventRecord[]) : [webhook.record as EventRecord];
  const renderers = records.map(typed);
  const pick = webhook.pick ?? (() => 0);
  const extra = Object.entries(webhook.extra ?? {});
  return async (events, tools) => {
    const out = new Map<string, RestRecord>();
    for (const [index, render] of renderers.entries()) {
      const picked = events.filter((event) => pick(event.payload) === index);
      if (picked.length) for (const [id, record] of await render(picked, tools)) out.set(id, record);
    }
    if (extra.length) {
      for (const event of events) {
        const record = out.get(event.id);
        if (record) out.set(event.id, { ...record, ...Object.fromEntries(extra.map(([key, { from }]) => [key, event.payload[from] ?? null])) });
      }
    }
    return out;
  };
}

function entryOf(webhook: WebhookDefinition): CatalogueEntry {
  const records = Array.isArray(webhook.record) ? (webhook.record as readonly EventRecord[]) : [webhook.record as EventRecord];
  const extra = webhook.extra ? Object.fromEntries(Object.entries(webhook.extra).map(([key, { schema }]) => [key, schema])) : undefined;
  return { description: webhook.description, render: webhookRenderer(webhook), types: records.map((r) => r.type), ...(extra ? { extra } : {}) };
}

export { customEventPrefix };
/** A subscription to this name receives every custom event. */
export const anyCustomEvent = 'event.emit';

/** A name a subscription may ask for: a catalogued event, any custom event, or one custom event. */
export type SubscribableName = WebhookEventName | typeof anyCustomEvent;

const customEvents = entryOf({ description: 'Every custom event (`event.emit.<NAME>`).', record: projectRecords('CustomEvent', 'customEvent') });

let built: { size: number; entries: Record<string, CatalogueEntry> } | undefined;

/**
 * The catalogue: every declared event with a webhook (each module's events.ts), then the custom
 * events. Made again only when a module declared more events since.
 */
export function webhookCatalogue(): Readonly<Record<string, CatalogueEntry>> {
  const definitions = eventDefinitions();
  if (built?.size !== definitions.size) {
    const entries: Record<string, CatalogueEntry> = {};
    for (const [name, definition] of definitions) if (definition.webhook) entries[name] = entryOf(definition.webhook);
    entries[anyCustomEvent] = customEvents;
    built = { size: definitions.size, entries };
  }
  return built.entries;
}

/** The catalogue entry for an event name; every `event.emit.<NAME>` shares the custom-event one. */
export function catalogueEntry(name: string): CatalogueEntry | undefined {
  const catalogue = webhookCatalogue();
  if (isCustomEventName(name)) return catalogue[anyCustomEvent];
  return Object.hasOwn(catalogue, name) ? catalogue[name] : undefined;
}

/** Whether a subscription to `subscribed` receives an event named `eventName`. */
export function subscriptionMatches(subscribed: string, eventName: DomainEventName): boolean {
  return subscribed === eventName || (subscribed === anyCustomEvent && eventName.startsWith(customEventPrefix));
}
