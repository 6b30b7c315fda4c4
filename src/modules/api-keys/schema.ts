import { builder } from '../../graphql/builder.js';
import { recordFields } from '../../graphql/record-fields.js';
import type { RestRoutes } from '../../rest/route-config.js';
import { minRole } from '../../graphql/scopes.js';
import type { ApiKeyRecord } from './service.js';

export const ApiKey = builder.objectRef<ApiKeyRecord>('ApiKey').implement({
  description: 'A project key for integrations: `Authorization: Bearer <key>` acts as a member of `role` in this project only.',
  fields: (t) => ({
    ...recordFields(t),
    id_project: t.exposeString('id_project', { nullable: false }),
    name: t.exposeString('name', { nullable: false }),
    role: t.exposeString('role', { nullable: false, description: 'agent or admin.' }),
    key: t.string({
      description: 'The key itself: only in the answer to its creation; the server keeps just a hash.',
      resolve: (k) => k.key ?? null,
    }),
    createdBy: t.exposeString('createdBy'),
    lastUsedAt: t.field({ type: 'DateTime', resolve: (k) => k.lastUsedAt }),
    revokedAt: t.field({ type: 'DateTime', resolve: (k) => k.revokedAt }),
  }),
});

builder.queryField('apiKeys', (t) =>
  t.field({
    type: [ApiKey],
    nullable: false,
    description: 'The project\'s API keys in use (never the keys themselves).',
    args: { project_id: t.arg.string({ required: true }) },
    authScopes: minRole('admin'),
    resolve: (_root, args, ctx) => ctx.services.apiKeys.list(args.project_id),
  }),
);

builder.mutationFields((t) => ({
  createApiKey: t.field({
    type: ApiKey,
    nullable: false,
    description: 'Creates a key; the answer\'s `key` is the only time it is shown. Not with an API key.',
    args: { project_id: t.arg.string({ required: true }), name: t.arg.string(), role: t.arg.string({ description: 'agent or admin.' }) },
    authScopes: minRole('admin'),
    resolve: async (_root, { project_id, ...input }, ctx) => ctx.services.apiKeys.create(project_id, (await ctx.principal())!, input),
  }),
  revokeApiKey: t.field({
    type: ApiKey,
    nullable: false,
    description: 'Revokes a key: it answers 401 at once, on every node.',
    args: { project_id: t.arg.string({ required: true }), key_id: t.arg.string({ required: true }) },
    authScopes: minRole('admin'),
    resolve: async (_root, args, ctx) => ctx.services.apiKeys.revoke(args.project_id, (await ctx.principal())!, args.key_id),
  }),
}));

export const routes: RestRoutes = {
  'Query.apiKeys': { method: 'GET', path: '/:project_id/api_keys' },
  'Mutation.createApiKey': { method: 'POST', path: '/:project_id/api_keys' },
  'Mutation.revokeApiKey': { method: 'DELETE', path: '/:project_id/api_keys/:key_id' },
};
