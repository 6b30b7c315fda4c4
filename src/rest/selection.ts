import {
  getNamedType,
  isObjectType,
  Kind,
  type DocumentNode,
  type FieldNode,
  type GraphQLObjectType,
  type GraphQLSchema,
  type SelectionNode,
  type SelectionSetNode,
} from 'graphql';

// REST answers keep the spec's wire shape while GraphQL clients select into typed relations. SOFA
// selects every field of a returned type; a field's `rest` extension (set with `restView`) says
// where the REST answer differs from that: a GraphQL-only field is left out, and a page shows a
// related record by its identifier. Webhook payloads are rendered with the same selection.

export interface RestView {
  /** Left out of REST answers: a GraphQL-only convenience (e.g. an identifier REST shows otherwise). */
  omit?: true;
  /**
   * Inside this field's value, REST shows these relations as a scalar sibling field instead
   * (relation name → field name): a list page shows a request's department by its identifier.
   */
  asIds?: Record<string, string>;
}

/** Field extensions that set how REST shows the field. */
export const restView = (view: RestView) => ({ rest: view });

const viewOf = (type: GraphQLObjectType, name: string): RestView | undefined =>
  type.getFields()[name]?.extensions?.rest as RestView | undefined;

function field(name: string, alias?: string): FieldNode {
  return { kind: Kind.FIELD, name: { kind: Kind.NAME, value: name }, ...(alias ? { alias: { kind: Kind.NAME, value: alias } } : {}) };
}

function rewrite(set: SelectionSetNode, type: GraphQLObjectType, asIds: Record<string, string> = {}): SelectionSetNode {
  const selections: SelectionNode[] = [];
  for (const node of set.selections) {
    if (node.kind !== Kind.FIELD) {
      selections.push(node);
      continue;
    }
    const name = node.name.value;
    const view = viewOf(type, name);
    if (view?.omit) continue;
    if (asIds[name] && !node.alias) {
      selections.push(field(asIds[name], name));
      continue;
    }
    const fieldType = type.getFields()[name] && getNamedType(type.getFields()[name].type);
    if (node.selectionSet && fieldType && isObjectType(fieldType)) {
      selections.push({ ...node, selectionSet: rewrite(node.selectionSet, fieldType, view?.asIds) });
    } else selections.push(node);
  }
  return { ...set, selections };
}

/** The document with each field's REST view applied (see `RestView`). */
export function withRestViews(schema: GraphQLSchema, document: DocumentNode): DocumentNode {
  return {
    ...document,
    definitions: document.definitions.map((definition) => {
      if (definition.kind !== Kind.OPERATION_DEFINITION) return definition;
      const root = schema.getRootType(definition.operation);
      return root ? { ...definition, selectionSet: rewrite(definition.selectionSet, root) } : definition;
    }),
  };
}
