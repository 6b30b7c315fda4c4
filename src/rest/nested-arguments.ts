import { Kind, visit, type ASTNode, type DocumentNode } from 'graphql';

// SOFA selects every field of a returned type, nested ones included, and turns a nested field's
// arguments into extra variables. Nested fields with arguments (a segment's page of leads) are
// for GraphQL clients that ask for them: REST bodies leave them out instead of running them with
// default arguments on every call.

export function withoutNestedArguments(document: DocumentNode): DocumentNode {
  const withoutFields = visit(document, {
    Field(node, _key, _parent, _path, ancestors) {
      const nested = ancestors.some((a) => (a as ASTNode).kind === Kind.FIELD);
      return nested && node.arguments?.length ? null : undefined;
    },
  });
  const used = new Set<string>();
  visit(withoutFields, {
    Variable(node, _key, parent) {
      if ((parent as ASTNode | undefined)?.kind !== Kind.VARIABLE_DEFINITION) used.add(node.name.value);
    },
  });
  return visit(withoutFields, {
    VariableDefinition(node) {
      return used.has(node.variable.name.value) ? undefined : null;
    },
  });
}
