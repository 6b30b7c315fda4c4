import type { HandRoute, RouteCall, RouteOperation } from '../../rest/hand-route.js';
import { errorResponseRefs } from '../../rest/openapi/shared.js';
import type { JsonSchema } from '../../rest/openapi/json-schema.js';
import { isActiveContent } from './content-type.js';
import { readUpload } from './multipart.js';

// Upload and download routes: multipart and binary bodies, which SOFA cannot generate. Declared in
// the files module's `routes` map (schema.ts) beside its generated route; any signed-in caller may
// call them, the service deciding what each may read or write (its own files, its projects').

function contentDisposition(kind: 'inline' | 'attachment', storagePath: string) {
  const name = storagePath.split('/').pop() ?? 'file';
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

const received = ({ ctx, request }: RouteCall) => () => readUpload(request, ctx.services.files.limits.maxBytes);
const caller = async ({ ctx }: RouteCall) => (await ctx.principal())!;

const served =
  (disposition: 'inline' | 'attachment', image = false) =>
  async (call: RouteCall) => {
    const { file, stream } = await call.ctx.services.files.open(await caller(call), call.query.get('path'), { image });
    // Pages and SVG would run in our origin if rendered: they are only ever downloaded.
    const kind = disposition === 'attachment' || isActiveContent(file.contentType) ? 'attachment' : 'inline';
    return {
      stream,
      headers: {
        'content-type': file.contentType.startsWith('text/') ? `${file.contentType}; charset=utf-8` : file.contentType,
        'content-length': String(file.size),
        'content-disposition': contentDisposition(kind, file.path),
        'x-content-type-options': 'nosniff',
        'content-security-policy': "default-src 'none'; sandbox",
        'cache-control': 'private, max-age=3600',
      },
    };
  };

const json = (schema: JsonSchema, description = 'The result.') => ({ description, content: { 'application/json': { schema } } });
const binary = (description: string) => ({ description, content: { '*/*': { schema: { type: 'string', format: 'binary' } } } });
const filePath = { name: 'path', in: 'query', required: true, schema: { type: 'string' }, description: 'The `filename` an upload answered.' };
const uploadBody = (what: string) => ({
  required: true,
  content: {
    'multipart/form-data': { schema: { type: 'object', properties: { file: { type: 'string', format: 'binary', description: what } }, required: ['file'] } },
  },
});
const operation = (summary: string, description: string, rest: Partial<RouteOperation>): RouteOperation => ({ summary, description, tags: ['Files'], ...rest });
const answersUpload = { responses: { 200: json({ $ref: '#/components/schemas/FileUploaded' }), ...errorResponseRefs } };

export const fileRoutes: Record<string, HandRoute> = {
  'Route.uploadFile': {
    method: 'POST',
    path: '/files/users',
    auth: 'signed-in',
    body: 'multipart',
    handle: async (call) => ({ json: await call.ctx.services.files.uploadFile(await caller(call), received(call)) }),
    operation: operation('Upload a file', "Stores a file (part `file`) in the caller's space; FILE_MAX_BYTES limits it.", { requestBody: uploadBody('The file.'), ...answersUpload }),
  },
  'Route.uploadImage': {
    method: 'POST',
    path: '/images/users',
    auth: 'signed-in',
    body: 'multipart',
    handle: async (call) => ({ json: await call.ctx.services.files.uploadImage(await caller(call), received(call)) }),
    operation: operation('Upload an image', "Stores an image (part `file`) and its thumbnail in the caller's space.", { requestBody: uploadBody('The image.'), ...answersUpload }),
  },
  'Route.uploadProjectFile': {
    method: 'POST',
    path: '/:project_id/files',
    auth: 'signed-in',
    body: 'multipart',
    handle: async (call) => ({ json: await call.ctx.services.files.uploadToProject(call.params.project_id, await caller(call), received(call)) }),
    operation: operation('Upload a file to a project', "Stores a file in the project's space, readable by its teammates.", {
      requestBody: uploadBody('The file.'),
      ...answersUpload,
    }),
  },
  'Route.readFile': {
    method: 'GET',
    path: '/files',
    auth: 'signed-in',
    body: 'none',
    handle: served('inline'),
    operation: operation('Read a file', 'The file inline (pages and SVG are always attachments).', {
      parameters: [filePath],
      responses: { 200: binary('The file, with its own content type.'), ...errorResponseRefs },
    }),
  },
  'Route.deleteFile': {
    method: 'DELETE',
    path: '/files',
    auth: 'signed-in',
    body: 'none',
    handle: async (call) => ({ json: await call.ctx.services.files.remove(await caller(call), call.query.get('path')) }),
    operation: operation('Delete a file', 'Deletes a file (and its thumbnail).', {
      parameters: [filePath],
      responses: { 200: json({ $ref: '#/components/schemas/FileDeleted' }), ...errorResponseRefs },
    }),
  },
  'Route.downloadFile': {
    method: 'GET',
    path: '/files/download',
    auth: 'signed-in',
    body: 'none',
    handle: served('attachment'),
    operation: operation('Download a file', 'The file as an attachment.', {
      parameters: [filePath],
      responses: { 200: binary('The file, with its own content type.'), ...errorResponseRefs },
    }),
  },
  'Route.readImage': {
    method: 'GET',
    path: '/images',
    auth: 'signed-in',
    body: 'none',
    handle: served('inline', true),
    operation: operation('Read an image', 'An uploaded image (or its thumbnail) inline.', {
      parameters: [filePath],
      responses: { 200: binary('The image.'), ...errorResponseRefs },
    }),
  },
};
