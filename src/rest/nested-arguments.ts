import { Kind, visit, type ASTNode, type DocumentNode, type GraphQLSchema } from 'graphql';
import type { RouteConfig } from '../graphql/record.js';

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

interface OpenApiOperation {
  parameters?: Array<{ name: string; in?: string }>;
  requestBody?: { content?: Record<string, { schema?: { properties?: Record<string, unknown> } }> };
}

interface DocumentedRouter {
  openAPIDocument?: { paths?: Record<string, Record<string, OpenApiOperation>> };
}

/** Keeps only a route's own arguments in the OpenAPI document, as the nested ones are not served. */
export function documentRootArgumentsOnly(router: DocumentedRouter, schema: GraphQLSchema, routes: Record<string, RouteConfig>) {
  const paths = router.openAPIDocument?.paths;
  if (!paths) return;
  for (const [field, route] of Object.entries(routes)) {
    const [typeName, fieldName] = field.split('.');
    const type = typeName === 'Mutation' ? schema.getMutationType() : schema.getQueryType();
    const own = type?.getFields()[fieldName]?.args.map((a) => a.name);
    const operation = paths[route.path.replace(/:(\w+)/g, '{$1}')]?.[route.method.toLowerCase()];
    if (!own || !operation) continue;
    // Body-only arguments (credentials) are no query parameters.
    operation.parameters = operation.parameters?.filter((p) => own.includes(p.name) && !(p.in === 'query' && route.bodyOnly?.includes(p.name)));
    for (const content of Object.values(operation.requestBody?.content ?? {})) {
      const properties = content.schema?.properties ?? {};
      for (const name of Object.keys(properties)) if (!own.includes(name)) delete properties[name];
    }
  }
}
