import { lexicographicSortSchema, parse, printType, type ObjectTypeDefinitionNode } from 'graphql';
import { builder } from './builder.js';
import './scalars.js';
import '../realtime/schema.js';
import { apiTagsOf, restRoutesOf, type PlatformModule } from '../module.js';
import { platformModules } from '../modules.js';

/**
 * The API of some modules: the GraphQL schema of every type and field registered so far (loading
 * a module's manifest loads its schema files) and the REST options made from their routes and tags.
 */
export function assembleApi(modules: readonly PlatformModule[]) {
  const schema = builder.toSchema();
  // SOFA reads each route argument's description from its root type's AST node and, for a type with
  // none (a code-first schema has none), prints and parses the whole root type again for every
  // argument: most of the time an app took to build. The nodes are made once, here.
  for (const root of [schema.getQueryType(), schema.getMutationType(), schema.getSubscriptionType()]) {
    if (root && !root.astNode) root.astNode = parse(printType(root)).definitions[0] as ObjectTypeDefinitionNode;
  }
  const { routes, aliases } = restRoutesOf(modules);
  return { schema, restOptions: { routes, aliases, tags: apiTagsOf(modules), title: 'Support platform REST API', version: '3' } };
}

const api = assembleApi(platformModules);
export const schema = api.schema;
export const restOptions = api.restOptions;
/** Every /v3 route, by the GraphQL field it runs (or the hand-written route's name). */
export const restRoutes = restOptions.routes;

/** The SDL as checked in: sorted, so it only changes when the schema does. */
export const printableSchema = () => lexicographicSortSchema(schema);
