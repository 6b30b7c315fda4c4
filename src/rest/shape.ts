import { Kind, visit, type DocumentNode, type FieldNode, type GraphQLSchema } from 'graphql';
import { withoutNestedArguments } from './nested-arguments.js';
import { withRestViews } from './selection.js';

// GraphQL cannot name `__v`; records carry `revision`, selected as `__v` wherever a record leaves as
// REST JSON (REST responses and webhook payloads), so both show the same shape. An alias, not a
// rename of the JSON text: nothing else is touched (a lead attribute named "revision" stays so),
// and nothing is done per call.

/** The document with every `revision` field selected under the name `__v`. */
export function withRestNames(document: DocumentNode): DocumentNode {
  return visit(document, {
    Field(node: FieldNode) {
      if (node.name.value !== 'revision' || node.alias) return undefined;
      return { ...node, alias: { kind: Kind.NAME, value: '__v' } };
    },
  });
}

/**
 * What a REST answer selects, from the selection SOFA builds for a field: no nested arguments,
 * each field's REST view (selection.ts), `__v`. REST routes and webhook payloads both use it.
 */
export function restDocument(schema: GraphQLSchema, document: DocumentNode): DocumentNode {
  return withRestNames(withRestViews(schema, withoutNestedArguments(document)));
}

/** Fields of stored records that are the server's own: never in a REST answer. */
const internalFields = new Set(['v', 'indexSeq', 'file']);

/** How a record is shown besides the rule: its columns renamed (column → wire name) or left out. */
export interface RecordView {
  rename?: Record<string, string>;
  omit?: string[];
}

/**
 * A value as REST shows records, for what no GraphQL selection shapes (a hand-written route's
 * answer, a webhook payload rendered from its row): each stored record in it (an object with `id`
 * and `v`) gets `_id` and `__v`, without the server's own fields; dates are ISO strings and big
 * integers numbers. `view` applies to the top-level record. Anything else is left as it is.
 */
export function restRecord(value: unknown, view: RecordView = {}): unknown {
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'bigint') return Number(value);
  if (Array.isArray(value)) return value.map((item) => restRecord(item));
  if (!value || typeof value !== 'object' || Object.getPrototypeOf(value) !== Object.prototype) return value;
  const record = value as Record<string, unknown>;
  const isRecord = 'id' in record && 'v' in record;
  const shown: Record<string, unknown> = isRecord ? { _id: record.id } : {};
  for (const [key, field] of Object.entries(record)) {
    if ((isRecord && internalFields.has(key)) || view.omit?.includes(key)) continue;
    shown[view.rename?.[key] ?? key] = restRecord(field);
  }
  if (isRecord) shown.__v = record.v;
  return shown;
}
