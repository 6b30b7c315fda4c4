import { minRole } from '../../../graphql/scopes.js';
import { badInput } from '../../../errors.js';
import { partTooLarge, readForm } from '../../../http/multipart-form.js';
import type { HandRoute } from '../../../rest/hand-route.js';

// POST /v3/:project_id/kb with multipart/form-data: a PDF or DOCX file (part `file`) as a content.
// SOFA cannot take files, so this route is written by hand, on the same method and path as the
// JSON form of the endpoint (Mutation.createKbContent), which the route table gives every other body.
// Fields `namespace`, `name` and `type` come from the form or the query string.

export const uploadKbContent: HandRoute = {
  method: 'POST',
  path: '/:project_id/kb',
  auth: minRole('admin'),
  body: 'multipart',
  async handle({ ctx, params, query, request }) {
    const maxBytes = ctx.services.infra.config.kb.fetchMaxBytes;
    const form = await readForm(request, maxBytes, 'file');
    const file = form.get('file') ?? form.get('uploadFile');
    if (!file || typeof file === 'string') throw badInput('file', 'file: is required (a part named `file` holding the document)');
    if (file.size > maxBytes) throw partTooLarge('file', maxBytes);
    const field = (name: string) => {
      const value = form.get(name) ?? query.get(name);
      return typeof value === 'string' && value !== '' ? value : undefined;
    };
    const principal = (await ctx.principal())!;
    const outcome = await ctx.services.kb.contents.upload(
      params.project_id,
      principal.userId,
      { namespace: field('namespace'), name: field('name'), type: field('type') },
      { filename: file.name, mediaType: file.type, bytes: new Uint8Array(await file.arrayBuffer()) },
    );
    return { json: outcome };
  },
  operation: {
    summary: 'Upload a document',
    tags: ['Knowledge base'],
    requestBody: {
      required: true,
      content: {
        'multipart/form-data': {
          schema: {
            type: 'object',
            properties: {
              file: { type: 'string', format: 'binary', description: 'A PDF or DOCX document.' },
              namespace: { type: 'string' },
              name: { type: 'string' },
              type: { type: 'string', description: '`pdf` or `docx`; from the file when absent.' },
            },
            required: ['file'],
          },
        },
      },
    },
  },
};
