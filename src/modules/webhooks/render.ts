import { buildOperationNodeForField } from '@graphql-tools/utils';
import {
  execute,
  getNamedType,
  isListType,
  isNonNullType,
  isObjectType,
  GraphQLObjectType,
  GraphQLSchema,
  Kind,
  type DocumentNode,
  type FieldNode,
  type GraphQLNamedType,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';
import type { Context, ContextServices } from '../../context.js';
import { forbidden } from '../../errors.js';
import { restDocument, restRecord } from '../../rest/shape.js';
import { publicKeyOf, schemeOf } from './signature.js';

// Webhook payloads are records as REST returns them. A record whose module has a GraphQL type is
// rendered through that type with the selection SOFA builds for a REST route (same depth, same
// nested-argument pruning, `revision` renamed to `__v`); the others are shaped from their row.

export type RestRecord = Record<string, unknown>;

/** GraphQL types SOFA treats as models: nested occurrences of them show only their id. */
function sofaModels(schema: GraphQLSchema): string[] {
  const fields = schema.getQueryType()?.getFields() ?? {};
  const found = new Map<string, { list: boolean; single: boolean }>();
  const plain = (s: string) => s.toLowerCase().replace(/[^a-z0-9]/g, '');
  for (const field of Object.values(fields)) {
    const type = getNamedType(field.type);
    if (!isObjectType(type) || !type.getFields().id) continue;
    const entry = found.get(type.name) ?? { list: false, single: false };
    found.set(type.name, entry);
    const unwrapped = isNonNullType(field.type) ? field.type.ofType : field.type;
    if (isListType(unwrapped) || String(field.type).includes('[')) {
      entry.list ||= plain(field.name) === plain(`${type.name}s`) && !field.args.some((a) => isNonNullType(a.type));
    } else {
      entry.single ||= plain(field.name) === plain(type.name) && field.args.length === 1 && field.args[0].name === 'id';
    }
  }
  return [...found].filter(([, e]) => e.list && e.single).map(([name]) => name);
}

/**
 * The context payloads are rendered with: nobody signed in, no role anywhere. A payload leaves the
 * platform, so it shows no more than a record shows to any reader (a bot's secret stays null).
 */
export function payloadContext(services: ContextServices): Context {
  const request = new Request('http://webhooks.internal/render');
  return {
    services,
    request,
    clientIp: '127.0.0.1',
    clientAddress: null,
    principal: async () => null,
    teammate: async () => null,
    hasRole: async () => false,
    requireRole: async () => {
      throw forbidden('webhook payloads are rendered without a role');
    },
  } as Context;
}

export class RecordRenderer {
  private documents = new Map<string, { schema: GraphQLSchema; document: DocumentNode }>();
  private models: string[] | undefined;

  constructor(
    private schema: () => GraphQLSchema,
    private context: () => Context,
  ) {}

  /** Whether the schema defines an object type of that name (its module is built). */
  hasType(typeName: string): boolean {
    return isObjectType(this.schema().getType(typeName));
  }

  /** The record as a REST route returning `typeName` shows it; null when the type cannot render it. */
  async render(typeName: string, value: unknown): Promise<RestRecord | null> {
    const { schema, document } = this.documentFor(typeName);
    const result = await execute({ schema, document, rootValue: { node: value }, contextValue: this.context() });
    const node = (result.data as { node?: unknown } | null | undefined)?.node;
    // Plain objects (graphql-js answers objects without a prototype).
    return node ? (JSON.parse(JSON.stringify(node)) as RestRecord) : null;
  }

  /** The type and the selection a record of `typeName` is rendered with: what its JSON Schema is made from. */
  selection(typeName: string): { type: GraphQLObjectType; selectionSet: SelectionSetNode } {
    const { schema, document } = this.documentFor(typeName);
    const operation = document.definitions[0] as OperationDefinitionNode;
    const node = operation.selectionSet.selections[0] as FieldNode;
    return { type: schema.getQueryType()!.getFields().node.type as GraphQLObjectType, selectionSet: node.selectionSet! };
  }

  private documentFor(typeName: string) {
    let entry = this.documents.get(typeName);
    if (entry) return entry;
    const full = this.schema();
    const type = full.getType(typeName) as GraphQLNamedType | undefined;
    if (!type || !isObjectType(type)) throw new Error(`no GraphQL object type ${typeName}`);
    // A one-field schema over the real types, so any row can be rendered, trashed ones included.
    const schema = new GraphQLSchema({
      query: new GraphQLObjectType({
        name: 'Query',
        fields: { node: { type, resolve: (root: { node: unknown }) => root.node } },
      }),
    });
    this.models ??= sofaModels(full);
    const operation = buildOperationNodeForField({
      schema,
      kind: 'query' as never,
      field: 'node',
      models: this.models,
      ignore: [],
      circularReferenceDepth: 2,
    });
    const document = restDocument(schema, { kind: Kind.DOCUMENT, definitions: [operation] });
    entry = { schema, document };
    this.documents.set(typeName, entry);
    return entry;
  }
}

/** The columns of a subscription REST shows: a column added later (a secret) stays out until named here. */
export const hookColumns = ['id', 'id_project', 'event', 'target', 'enabled', 'failingSince', 'disabledAt', 'disabledReason', 'throttle', 'createdBy', 'createdAt', 'updatedAt', 'v'];

/**
 * A subscription as REST shows it, never with its secrets: the `hook` of every notification. Its
 * signing scheme and public key are derived from its key, as the GraphQL type derives them.
 */
export function hookRecord(subscription: Record<string, unknown> & { id: string; signingSecret: string }): RestRecord {
  return {
    ...(restRecord(Object.fromEntries(hookColumns.map((column) => [column, subscription[column]]))) as RestRecord),
    signing: schemeOf(subscription.signingSecret),
    publicKey: publicKeyOf(subscription.signingSecret),
  };
}
