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

/**
 * A value a hand-written route answers, as REST shows records (a GraphQL selection does it for the
 * generated routes): each stored record in it (an object with `id` and `v`) gets `_id` and `__v`,
 * without the server's own fields. Anything else is left as it is.
 */
export function restRecord(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(restRecord);
  if (!value || typeof value !== 'object' || Object.getPrototypeOf(value) !== Object.prototype) return value;
  const record = value as Record<string, unknown>;
  const isRecord = 'id' in record && 'v' in record;
  const shown = Object.fromEntries(
    Object.entries(record)
      .filter(([key]) => !isRecord || !internalFields.has(key))
      .map(([key, field]) => [key, restRecord(field)]),
  );
  return isRecord ? { _id: record.id, ...shown, __v: record.v } : shown;
}
