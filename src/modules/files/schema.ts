import { builder } from '../../graphql/builder.js';
import type { RestRoutes } from '../../rest/route-config.js';
import type { FileLimits } from './service.js';
import { fileRoutes } from './routes.js';

// What an upload may be, for clients to refuse a file before sending it (the server refuses it
// anyway: 413 past the size, 400 naming `file` for a type outside the list).

const FileLimitsType = builder.objectRef<FileLimits>('FileLimits').implement({
  description: 'The upload limits of this server (FILE_MAX_BYTES, FILE_ALLOWED_TYPES, FILE_MAX_PIXELS).',
  fields: (t) => ({
    maxBytes: t.exposeInt('maxBytes', { nullable: false, description: 'Largest upload, in bytes.' }),
    allowedTypes: t.exposeStringList('allowedTypes', { nullable: false, description: 'Media types accepted; `type/*` accepts every subtype.' }),
    maxPixels: t.exposeInt('maxPixels', { nullable: false, description: 'Largest image (width × height) given a thumbnail.' }),
  }),
});

builder.queryField('fileLimits', (t) =>
  t.field({
    type: FileLimitsType,
    nullable: false,
    description: 'The upload limits; anyone may read them (the widget checks a file before a visitor signs in).',
    resolve: (_root, _args, ctx) => ctx.services.files.limits,
  }),
);

export const routes: RestRoutes = {
  'Query.fileLimits': { method: 'GET', path: '/files/limits' },
  ...fileRoutes,
};
