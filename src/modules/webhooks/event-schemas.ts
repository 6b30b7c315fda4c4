import { SchemaCollector, type JsonSchema } from '../../rest/openapi/json-schema.js';
import { webhookCatalogue, type CatalogueEntry } from './catalogue.js';
import type { RecordRenderer } from './render.js';
import { hookColumns } from './render.js';

// The event catalogue as clients read it (GET /v3/webhooks/events): each event type with a JSON
// Schema (2020-12) of the notification body. A payload's schema is made from the very type and
// selection its records are rendered with (RecordRenderer, the deliveries' presenter), through the
// collector the OpenAPI document uses, so a field the presenter sends is a field the schema names.

export interface WebhookEventType {
  event: string;
  description: string;
  schema: JsonSchema;
}

const toDefs = (schema: unknown): unknown => JSON.parse(JSON.stringify(schema).replaceAll('"#/components/schemas/', '"#/$defs/'));

/** A record gone by the time it was rendered: its identifiers (catalogue.ts, dispatcher.ts). */
const identifiers: JsonSchema = {
  type: 'object',
  description: 'The record was deleted before it could be rendered: its identifiers.',
  properties: { _id: { type: 'string' }, id: { type: 'string' }, id_project: { type: 'string' }, deleted: { const: true } },
  required: ['_id', 'id', 'id_project'],
  additionalProperties: false,
};

const timestamps = new Set(['failingSince', 'disabledAt', 'createdAt', 'updatedAt']);
/** The `hook` of every notification: the subscription's columns REST shows (render.ts hookRecord). */
const hook: JsonSchema = {
  type: 'object',
  description: 'The subscription the notification is sent for, without its secrets.',
  properties: Object.fromEntries([
    ['_id', { type: 'string' }],
    ...hookColumns.map((column) => {
      const name = column === 'v' ? '__v' : column;
      if (column === 'v') return [name, { type: 'integer' }];
      if (column === 'throttle') return [name, { type: ['integer', 'null'] }];
      if (column === 'enabled') return [name, { type: 'boolean' }];
      if (timestamps.has(column)) return [name, column === 'createdAt' || column === 'updatedAt' ? { type: 'string', format: 'date-time' } : { type: ['string', 'null'], format: 'date-time' }];
      return [name, column === 'disabledReason' ? { type: ['string', 'null'] } : { type: 'string' }];
    }),
    ['signing', { enum: ['hmac', 'ed25519'] }],
    ['publicKey', { type: ['string', 'null'] }],
  ]),
  required: ['_id', 'id', 'id_project', 'event', 'target'],
  additionalProperties: false,
};

function eventSchema(name: string, entry: CatalogueEntry, records: RecordRenderer): JsonSchema {
  const collector = new SchemaCollector();
  const roots = entry.types.map((typeName) => {
    const { type, selectionSet } = records.selection(typeName);
    collector.output(type, selectionSet);
    return type.name;
  });
  const defs = collector.components(
    Object.fromEntries(collector.usedScalars().map((scalar) => [scalar, { description: `Any JSON value (GraphQL scalar ${scalar}).` }])),
  ) as Record<string, JsonSchema>;
  // The record itself, inline, with what the renderer adds to it.
  const records$ = roots.map((root) => {
    const component = defs[root] as { properties: Record<string, JsonSchema> } & JsonSchema;
    return { ...component, properties: { ...component.properties, ...entry.extra } };
  });
  return toDefs({
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    title: name,
    description: entry.description,
    type: 'object',
    properties: {
      timestamp: { type: 'integer', description: 'When the event happened, in milliseconds since the epoch.' },
      payload: { anyOf: [...records$, identifiers] },
      hook,
    },
    required: ['timestamp', 'payload', 'hook'],
    additionalProperties: false,
    $defs: defs,
  }) as JsonSchema;
}

/** Every event type a subscription may ask for, with its schema; made once per renderer. */
export function webhookEventTypes(records: RecordRenderer): WebhookEventType[] {
  return Object.entries(webhookCatalogue()).map(([event, entry]) => ({ event, description: entry.description, schema: eventSchema(event, entry, records) }));
}
