import {
  getArgumentValues,
  getOperationAST,
  getVariableValues,
  Kind,
  type DocumentNode,
  type ExecutionArgs,
  type FieldNode,
  type SelectionSetNode,
} from 'graphql';

/** The root field of a subscription document: a subscription selects exactly one. */
function rootField(selectionSet: SelectionSetNode, document: DocumentNode): FieldNode | undefined {
  for (const selection of selectionSet.selections) {
    if (selection.kind === Kind.FIELD) {
      if (!selection.name.value.startsWith('__')) return selection;
      continue;
    }
    let set: SelectionSetNode | undefined;
    if (selection.kind === Kind.INLINE_FRAGMENT) set = selection.selectionSet;
    else {
      const name = selection.name.value;
      for (const definition of document.definitions) {
        if (definition.kind === Kind.FRAGMENT_DEFINITION && definition.name.value === name) set = definition.selectionSet;
      }
    }
    const found = set && rootField(set, document);
    if (found) return found;
  }
  return undefined;
}

/** The arguments the subscription's root field was given (its `project_id` and `request_id`). */
export function rootArguments(args: ExecutionArgs): Record<string, unknown> {
  const operation = getOperationAST(args.document, args.operationName);
  const type = args.schema.getSubscriptionType();
  const node = operation && rootField(operation.selectionSet, args.document);
  const field = node && type?.getFields()[node.name.value];
  if (!operation || !node || !field) return {};
  const variables = getVariableValues(args.schema, operation.variableDefinitions ?? [], args.variableValues ?? {});
  return variables.coerced ? getArgumentValues(field, node, variables.coerced) : {};
}
