import type { JsonSchema } from './json-schema.js';
import { errorResponseRefs } from './shared.js';
import { docsAssets } from '../docs-page.js';

// Routes written by hand beside the generated ones (src/modules/files/routes.ts, kb/upload.ts,
// bots/upload.ts, requests/array-bodies.ts) and this document's own: described here so the
// document lists every route /v3 answers.

export type Operation = JsonSchema & { tags?: string[]; requestBody?: JsonSchema; parameters?: JsonSchema[] };

const json = (schema: JsonSchema, description = 'The result.') => ({ description, content: { 'application/json': { schema } } });
const filePath = { name: 'path', in: 'query', required: true, schema: { type: 'string' }, description: 'The `filename` an upload answered.' };
const binary = (description: string) => ({ description, content: { '*/*': { schema: { type: 'string', format: 'binary' } } } });
const multipart = (parts: Record<string, JsonSchema>, required: string[]): JsonSchema => ({
  type: 'object',
  properties: parts,
  required,
});
const uploadBody = (what: string) => ({
  required: true,
  content: { 'multipart/form-data': { schema: multipart({ file: { type: 'string', format: 'binary', description: what } }, ['file']) } },
});

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

const fileOperations: Record<string, Record<string, Operation>> = {
  '/files/users': {
    post: {
      operationId: 'uploadFile',
      summary: 'Upload a file',
      description: "Stores a file (part `file`) in the caller's space; FILE_MAX_BYTES limits it.",
      tags: ['Files'],
      requestBody: uploadBody('The file.'),
      responses: { 200: json({ $ref: '#/components/schemas/FileUploaded' }), ...errorResponseRefs },
    },
  },
  '/images/users': {
    post: {
      operationId: 'uploadImage',
      summary: 'Upload an image',
      description: "Stores an image (part `file`) and its thumbnail in the caller's space.",
      tags: ['Files'],
      requestBody: uploadBody('The image.'),
      responses: { 200: json({ $ref: '#/components/schemas/FileUploaded' }), ...errorResponseRefs },
    },
  },
  '/{project_id}/files': {
    post: {
      operationId: 'uploadProjectFile',
      summary: 'Upload a file to a project',
      description: "Stores a file in the project's space, readable by its teammates.",
      tags: ['Files'],
      parameters: [{ name: 'project_id', in: 'path', required: true, schema: { type: 'string' } }],
      requestBody: uploadBody('The file.'),
      responses: { 200: json({ $ref: '#/components/schemas/FileUploaded' }), ...errorResponseRefs },
    },
  },
  '/files': {
    get: {
      operationId: 'readFile',
      summary: 'Read a file',
      description: 'The file inline (pages and SVG are always attachments).',
      tags: ['Files'],
      parameters: [filePath],
      responses: { 200: binary('The file, with its own content type.'), ...errorResponseRefs },
    },
    delete: {
      operationId: 'deleteFile',
      summary: 'Delete a file',
      description: 'Deletes a file (and its thumbnail).',
      tags: ['Files'],
      parameters: [filePath],
      responses: { 200: json({ $ref: '#/components/schemas/FileDeleted' }), ...errorResponseRefs },
    },
  },
  '/files/download': {
    get: {
      operationId: 'downloadFile',
      summary: 'Download a file',
      description: 'The file as an attachment.',
      tags: ['Files'],
      parameters: [filePath],
      responses: { 200: binary('The file, with its own content type.'), ...errorResponseRefs },
    },
  },
  '/images': {
    get: {
      operationId: 'readImage',
      summary: 'Read an image',
      description: 'An uploaded image (or its thumbnail) inline.',
      tags: ['Files'],
      parameters: [filePath],
      responses: { 200: binary('The image.'), ...errorResponseRefs },
    },
  },
  '/openapi.json': {
    get: {
      operationId: 'openApiDocument',
      summary: 'This document',
      tags: ['Documentation'],
      security: [{}],
      responses: { 200: json({ type: 'object' }, 'The OpenAPI 3.1 document.'), ...errorResponseRefs },
    },
  },
  '/docs': {
    get: {
      operationId: 'documentationPage',
      summary: 'The documentation page',
      description: 'Swagger UI over this document, served with its assets (works offline).',
      tags: ['Documentation'],
      security: [{}],
      responses: { 200: { description: 'The page.', content: { 'text/html': { schema: { type: 'string' } } } }, ...errorResponseRefs },
    },
  },
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

export function handWrittenOperations(paths: Record<string, Record<string, Operation>>) {
  // Each asset by name (a `{asset}` template would make every `/{project_id}/x` path ambiguous).
  const assets = Object.fromEntries(
    docsAssets.map(([name, type]) => [
      `/docs/${name}`,
      {
        get: {
          operationId: `documentationAsset_${name.replace(/\W/g, '_')}`,
          summary: `Documentation page asset ${name}`,
          tags: ['Documentation'],
          security: [{}],
          responses: { 200: { description: 'The asset.', content: { [type.split(';')[0]]: { schema: { type: 'string' } } } }, ...errorResponseRefs },
        },
      },
    ]),
  );
  for (const [path, item] of Object.entries({ ...fileOperations, ...assets })) {
    for (const [method, operation] of Object.entries(item)) {
      if (paths[path]?.[method]) throw new Error(`OpenAPI: ${method.toUpperCase()} ${path} is also generated`);
      (paths[path] ??= {})[method] = operation;
    }
  }
  alsoTakes(paths, 'post', '/{project_id}/kb', 'multipart/form-data', multipart(
    {
      file: { type: 'string', format: 'binary', description: 'A PDF or DOCX document.' },
      namespace: { type: 'string' },
      name: { type: 'string' },
      type: { type: 'string', description: '`pdf` or `docx`; from the file when absent.' },
    },
    ['file'],
  ));
  for (const prefix of ['bots', 'faq_kb']) {
    alsoTakes(paths, 'post', `/{project_id}/${prefix}/importjson/{id}`, 'multipart/form-data', multipart(
      { uploadFile: { type: 'string', format: 'binary', description: 'The exported bot (JSON).' } },
      ['uploadFile'],
    ));
  }
  arrayBody(paths, 'post', '/{project_id}/requests/{request_id}/messages/multi', 'messages');
  arrayBody(paths, 'put', '/{project_id}/requests/{request_id}/participants', 'participants');
}

export const handWrittenSchemas: Record<string, JsonSchema> = { FileUploaded: uploaded, FileDeleted: deleted };
