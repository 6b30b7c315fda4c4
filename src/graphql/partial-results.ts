import SchemaBuilder, { BasePlugin, type PothosOutputFieldConfig, type SchemaTypes } from '@pothos/core';
import { GraphQLNonNull, isNonNullType, type GraphQLField, type GraphQLOutputType } from 'graphql';

// Partial results: one field the caller may not read must not blank out the rest of the answer.
// GraphQL propagates an error in a non-null field to its nearest nullable parent, so a single
// FORBIDDEN field declared `nullable: false` at the root turned the whole `data` into null. The
// rule lives here, once, whatever a module declares (the convention of GitHub's and Shopify's
// APIs: top-level fields are nullable so errors stay local):
// - every root Query field is nullable;
// - every nested field guarded by its own `authScopes` is nullable, so a refusal there nulls that
//   field alone and not the object (or list) holding it.
// Mutations keep their declared types: making them nullable would change what a document of
// several mutations (run in order) does once one of its writes fails, and every typed client would
// have to handle a null payload, for documents that are rare. Subscriptions have one root field, so nothing is partial there.
//
// REST is unaffected: SOFA answers any error with the error body and status, never a null 200.
// The field's declared non-nullness is kept in its extensions (`restOutputType`) so the REST
// document can still promise a value for a successful call.

const pluginName = 'partialResults';

/** Marks, in a field's extensions, that its module declared it non-null before this rule relaxed it. */
const declaredNonNull = 'declaredNonNull';

/** Whether this rule makes the field nullable: a root query field, or a nested field with its own role guard. */
function keepsErrorsLocal(config: PothosOutputFieldConfig<SchemaTypes>): boolean {
  if (config.kind === 'Query') return true;
  if (config.kind !== 'Object' && config.kind !== 'Interface') return false;
  return (config.pothosOptions as { authScopes?: unknown }).authScopes !== undefined;
}

export class PartialResultsPlugin<Types extends SchemaTypes> extends BasePlugin<Types> {
  override onOutputFieldConfig(fieldConfig: PothosOutputFieldConfig<Types>): PothosOutputFieldConfig<Types> {
    if (fieldConfig.type.nullable || !keepsErrorsLocal(fieldConfig as PothosOutputFieldConfig<SchemaTypes>)) return fieldConfig;
    return {
      ...fieldConfig,
      type: { ...fieldConfig.type, nullable: true },
      extensions: { ...fieldConfig.extensions, [declaredNonNull]: true },
    };
  }
}

/**
 * The type a field's module declared: non-null again where this rule relaxed it. REST answers an
 * error instead of a null value, so its documented response uses this type.
 */
export function restOutputType(field: GraphQLField<unknown, unknown>): GraphQLOutputType {
  const relaxed = (field.extensions as Record<string, unknown> | undefined)?.[declaredNonNull] === true;
  return relaxed && !isNonNullType(field.type) ? new GraphQLNonNull(field.type) : field.type;
}

declare global {
  export namespace PothosSchemaTypes {
    interface Plugins<Types extends SchemaTypes> {
      partialResults: PartialResultsPlugin<Types>;
    }
  }
}

SchemaBuilder.registerPlugin(pluginName, PartialResultsPlugin);

export default pluginName;
