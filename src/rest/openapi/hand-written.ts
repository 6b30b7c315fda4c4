import type { JsonSchema } from './json-schema.js';
import { errorResponseRefs } from './shared.js';
import type { RestAliases, RestRoutes } from '../route-config.js';
import { isHandRoute } from '../hand-route.js';
import { openApiPath, pathParameters } from './routes.js';

// Routes written by hand beside the generated ones (each declared with its operation in a module's
// `routes` map), and the other bodies generated routes take: so the document lists every route of
// the table, as the REST lane serves it.

export type Operation = JsonSchema & { tags?: string[]; requestBody?: JsonSchema; parameters?: JsonSchema[] };

const multipart = (parts: Record<string, JsonSchema>, required: string[]): JsonSchema => ({ type: 'object', properties: parts, required });

const uploaded: JsonSchema = {
  type: 'object',
  properties: {
    message: { type: 'string' },
    filename: { type: 'string', description: 'The path to read or delete it by.' },
    thumbnail: { type: 'string', description: 'An image\'s thumbnail path.' },
    contentType: { type: 'string', description: 'The media type found in the content (not the one the client named).' },
    size: { type: 'integer', description: 'Bytes stored.' },
  },
  required: ['message', 'filename', 'contentType', 'size'],
  additionalProperties: false,
};
const deleted: JsonSchema = {
  type: 'object',
  properties: { message: { type: 'string' }, filename: { type: 'string' } },
  required: ['message', 'filename'],
  additionalProperties: false,
};

/** A second body a generated operation takes: multipart for uploads, a bare array for lists. */
function alsoTakes(paths: Record<string, Record<string, Operation>>, method: string, path: string, mediaType: string, schema: JsonSchema) {
  const operation = paths[path]?.[method];
  if (!operation?.requestBody) throw new Error(`OpenAPI: ${method.toUpperCase()} ${path} has no body to add ${mediaType} to`);
  (operation.requestBody.content as Record<string, JsonSchema>)[mediaType] = { schema };
}

function arrayBody(paths: Record<string, Record<string, Operation>>, method: string, path: string, argument: string) {
  const content = (paths[path]?.[method]?.requestBody?.content as Record<string, { schema: JsonSchema }> | undefined)?.['application/json'];
  const argumentSchema = (content?.schema.properties as Record<string, JsonSchema> | undefined)?.[argument];
  if (!content || !argumentSchema) throw new Error(`OpenAPI: ${method.toUpperCase()} ${path} has no ${argument} to take bare`);
  // The bare array is that argument; the object form stays valid.
  const { description: _d, ...items } = argumentSchema;
  const list = items.type && Array.isArray(items.type) ? { ...items, type: 'array' } : items;
  content.schema = { anyOf: [content.schema, list] };
}

/**
 * The routes written by hand (a module's `Route.name` entries, each with its operation) and what
 * generated routes take besides a JSON object (multipart forms, bare arrays), added to `paths`.
 */
export function handWrittenOperations(paths: Record<string, Record<string, Operation>>, routes: RestRoutes, aliases: RestAliases = {}) {
  for (const [key, route] of Object.entries(routes)) {
    const path = openApiPath(route.path);
    const method = route.method.toLowerCase();
    if (!isHandRoute(route)) {
      // The route and its aliases, which run it.
      for (const served of [route, ...(aliases[key] ?? [])]) {
        const [at, verb] = [openApiPath(served.path), served.method.toLowerCase()];
        if (route.formParts) {
          const parts = Object.fromEntries(route.formParts.map((part) => [part, { type: 'string', format: 'binary' }]));
          alsoTakes(paths, verb, at, 'multipart/form-data', multipart(parts, [...route.formParts]));
        }
        if (route.arrayBody) arrayBody(paths, verb, at, route.arrayBody);
      }
      continue;
    }
    const generated = paths[path]?.[method];
    if (generated && route.body === 'multipart') {
      const { schema } = (route.operation.requestBody?.content as Record<string, { schema: JsonSchema }>)['multipart/form-data'];
      alsoTakes(paths, method, path, 'multipart/form-data', schema);
      continue;
    }
    if (generated) throw new Error(`OpenAPI: ${route.method} ${path} is also generated`);
    const parameters = [...pathParameters(route.path).map((name) => ({ name, in: 'path', required: true, schema: { type: 'string' } })), ...(route.operation.parameters ?? [])];
    (paths[path] ??= {})[method] = {
      operationId: key.replace(/^Route\./, ''),
      ...route.operation,
      ...(parameters.length ? { parameters } : {}),
    };
  }
}

export const handWrittenSchemas: Record<string, JsonSchema> = { FileUploaded: uploaded, FileDeleted: deleted };
