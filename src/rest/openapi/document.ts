import { buildOperationNodeForField } from '@graphql-tools/utils';
import { Kind, isInputObjectType, isListType, isNonNullType, getNullableType, type FieldNode, type GraphQLSchema, type OperationDefinitionNode, type OperationTypeNode } from 'graphql';
import { createSofa } from 'sofa-api';
import type { RestAliases, RestRoutes, RouteConfig } from '../route-config.js';
import { errorStatus } from '../../errors.js';
import { restDocument } from '../shape.js';
import { restOutputType } from '../../graphql/partial-results.js';
import { documentedRoutes, openApiPath, pathParameters, type DocumentedRoute } from './routes.js';
import { SchemaCollector, scalarComponents, sortedKeys, withDescription, type JsonSchema } from './json-schema.js';
import { documentationTag, resourceTagger } from './tags.js';
import type { ApiTag } from '../../module.js';
import { handWrittenOperations, handWrittenSchemas, type Operation } from './hand-written.js';
import { errorBodySchema, errorResponses, errorResponseRefs, securitySchemes, anyCredential } from './shared.js';

// The OpenAPI 3.1 document of /v3, made from what the REST face runs: each route's selection as
// executed (see json-schema.ts), its arguments where SOFA reads them (path, then the JSON body
// for POST/PUT/PATCH, the query string otherwise), the hand-written routes, and the one error body.

export interface DocumentOptions {
  routes: RestRoutes;
  aliases?: RestAliases;
  title: string;
  version: string;
  /** SOFA's circular reference depth (plugin.ts): it shapes the selections. */
  depthLimit: number;
  basePath: string;
  /** The modules' tags, in the order the document lists them. */
  tags?: readonly ApiTag[];
}

/** The operation SOFA builds for a field, as the REST face executes it. */
function restOperation(schema: GraphQLSchema, route: DocumentedRoute, sofa: ReturnType<typeof createSofa>): OperationDefinitionNode {
  const node = buildOperationNodeForField({
    kind: route.kind as OperationTypeNode,
    schema,
    field: route.field.name,
    models: sofa.models,
    ignore: sofa.ignore,
    circularReferenceDepth: sofa.depthLimit,
  });
  const document = restDocument(schema, { kind: Kind.DOCUMENT, definitions: [node] });
  return document.definitions[0] as OperationDefinitionNode;
}

const hasBody = (method: string) => method === 'POST' || method === 'PUT' || method === 'PATCH';

/** `createDepartment` → `Create department`. */
function summaryOf(name: string) {
  const words = name.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

function isPublic(route: DocumentedRoute) {
  const options = (route.field.extensions as { pothosOptions?: { authScopes?: unknown } } | undefined)?.pothosOptions;
  return !options?.authScopes;
}

function describeRoute(schema: GraphQLSchema, route: DocumentedRoute, collector: SchemaCollector, sofa: ReturnType<typeof createSofa>, basePath: string, tagOf: (path: string) => string): Operation {
  const operation = restOperation(schema, route, sofa);
  const declared = new Set((operation.variableDefinitions ?? []).map((v) => v.variable.name.value));
  const args = route.field.args.filter((a) => declared.has(a.name));
  const inPath = pathParameters(route.path);
  const bodyOnly = route.config?.bodyOnly ?? [];
  const parameters: JsonSchema[] = inPath.map((name) => {
    const arg = args.find((a) => a.name === name);
    return {
      name,
      in: 'path',
      required: true,
      // A path segment is text; only an Int argument is read as a number.
      schema: String(getNullableType(arg?.type ?? ({} as never))) === 'Int' ? { type: 'integer', format: 'int32' } : { type: 'string' },
      ...(arg?.description ? { description: arg.description } : {}),
    };
  });
  const bodyProperties: Record<string, JsonSchema> = {};
  const bodyRequired: string[] = [];
  for (const arg of args) {
    if (inPath.includes(arg.name)) continue;
    const required = isNonNullType(arg.type) && arg.defaultValue === undefined;
    const named = getNullableType(arg.type);
    if (hasBody(route.method) || bodyOnly.includes(arg.name)) {
      bodyProperties[arg.name] = withDescription(collector.input(arg.type), arg.description);
      if (required) bodyRequired.push(arg.name);
      if (route.config?.queryToo?.includes(arg.name)) {
        const also = 'Accepted in the query string (as the spec sends it) or in the JSON body.';
        parameters.push({ name: arg.name, in: 'query', required: false, schema: collector.input(named), description: arg.description ? `${arg.description} ${also}` : also });
      }
      continue;
    }
    parameters.push({
      name: arg.name,
      in: 'query',
      required,
      schema: collector.input(named),
      // Input objects are read by qs: `filter[name]=x`.
      ...(isInputObjectType(named) ? { style: 'deepObject', explode: true } : {}),
      ...(isListType(named) ? { style: 'form', explode: true } : {}),
      ...(arg.description ? { description: arg.description } : {}),
    });
  }
  const rootField = operation.selectionSet.selections[0] as FieldNode;
  const description = route.aliasOf
    ? `Alias of ${route.aliasOf.method} ${basePath}${route.aliasOf.path}.${route.field.description ? ` ${route.field.description}` : ''}`
    : (route.config?.description ?? route.field.description ?? undefined);
  const result: Operation = {
    operationId: route.aliasOf ? `${route.field.name}_alias${route.aliasOf.index}` : route.field.name,
    summary: summaryOf(route.field.name) + (route.aliasOf ? ' (alias)' : ''),
    ...(description ? { description } : {}),
    tags: [tagOf(route.path)],
    ...(isPublic(route) ? { security: [{}, ...anyCredential] } : {}),
    ...(parameters.length ? { parameters } : {}),
    responses: {
      200: {
        description: 'The result.',
        content: { 'application/json': { schema: collector.output(restOutputType(route.field), rootField.selectionSet) } },
      },
      ...errorResponseRefs,
    },
  };
  if (Object.keys(bodyProperties).length || hasBody(route.method)) {
    result.requestBody = {
      required: bodyRequired.length > 0,
      content: {
        'application/json': {
          schema: {
            type: 'object',
            properties: sortedKeys(bodyProperties),
            ...(bodyRequired.length ? { required: bodyRequired.sort() } : {}),
          },
        },
      },
    };
  }
  return result;
}

/** The document, built once per schema (it walks every route's selection). */
export function buildOpenApiDocument(schema: GraphQLSchema, options: DocumentOptions): Record<string, unknown> {
  const sofa = createSofa({ schema, depthLimit: options.depthLimit, basePath: options.basePath } as never);
  const tagOf = resourceTagger(options.tags ?? []);
  const tagDescriptions = [...(options.tags ?? []), documentationTag].map(({ name, description }) => ({ name, description }));
  const collector = new SchemaCollector();
  const paths: Record<string, Record<string, Operation>> = {};
  const add = (method: string, path: string, operation: Operation) => {
    const item = (paths[openApiPath(path)] ??= {});
    if (item[method.toLowerCase()]) throw new Error(`OpenAPI: ${method} ${path} documented twice`);
    item[method.toLowerCase()] = operation;
  };
  for (const route of documentedRoutes(schema, options.routes, options.aliases)) {
    add(route.method, route.path, describeRoute(schema, route, collector, sofa, options.basePath, tagOf));
  }
  handWrittenOperations(paths, options.routes, options.aliases);
  const scalars = scalarComponents(collector.usedScalars().map((name) => schema.getType(name)!));
  const usedTags = new Set(Object.values(paths).flatMap((item) => Object.values(item).flatMap((op) => op.tags ?? [])));
  return {
    openapi: '3.1.0',
    info: {
      title: options.title,
      version: options.version,
      description:
        'The REST face of the GraphQL API: each operation runs one GraphQL field. Records carry `__v` (their revision). ' +
        `Errors answer one JSON body (\`Error\`) with a stable \`code\`: ${Object.keys(errorStatus).join(', ')}.`,
    },
    servers: [{ url: options.basePath, description: 'This server' }],
    security: anyCredential,
    tags: [...tagDescriptions.filter((t) => usedTags.has(t.name)), ...[...usedTags].filter((t) => !tagDescriptions.some((d) => d.name === t)).map((name) => ({ name }))],
    paths: sortedKeys(paths),
    components: {
      schemas: collector.components({ ...scalars, ...handWrittenSchemas, Error: errorBodySchema }),
      responses: errorResponses,
      securitySchemes,
    },
  };
}
