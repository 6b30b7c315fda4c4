import { builder } from '../../graphql/builder.js';
import { recordFields } from '../../graphql/record-fields.js';
import type { RestRoutes } from '../../rest/route-config.js';
import { minRole } from '../../graphql/scopes.js';
import { definedArgs } from '../../graphql/args.js';
import type { TagRecord } from './service.js';

export const Tag = builder.objectRef<TagRecord>('Tag').implement({
  fields: (t) => ({
    ...recordFields(t),
    id_project: t.exposeString('id_project', { nullable: false }),
    tag: t.exposeString('tag', { nullable: false, description: 'The name, unique in the project.' }),
    color: t.exposeString('color', { nullable: false, description: 'Hexadecimal, e.g. #43B1F2.' }),
    attributes: t.field({ type: 'JSON', resolve: (tag) => tag.attributes }),
    createdBy: t.exposeString('createdBy'),
  }),
});

builder.queryFields((t) => ({
  tags: t.field({
    type: [Tag],
    nullable: false,
    args: {
      project_id: t.arg.string({ required: true }),
      sortField: t.arg.string({ description: '`createdAt` (default), `updatedAt` or `tag`.' }),
      direction: t.arg.int({ description: '1 ascending, -1 descending (default).' }),
      page: t.arg.int({ description: '0 is the first page (default).' }),
      limit: t.arg.int({ description: 'Page size, 40 by default, at most 100.' }),
    },
    authScopes: minRole('agent'),
    resolve: (_root, { project_id, ...query }, ctx) => ctx.services.tags.list(project_id, definedArgs(query)),
  }),
  tag: t.field({
    type: Tag,
    nullable: false,
    args: { project_id: t.arg.string({ required: true }), id: t.arg.string({ required: true }) },
    authScopes: minRole('agent'),
    resolve: (_root, args, ctx) => ctx.services.tags.get(args.project_id, args.id),
  }),
}));

// Agents tag requests as they work, so they may create and edit tags too.
builder.mutationFields((t) => ({
  createTag: t.field({
    type: Tag,
    nullable: false,
    description: 'Creating a name the project already has returns the existing tag.',
    args: {
      project_id: t.arg.string({ required: true }),
      tag: t.arg.string(),
      color: t.arg.string({ description: 'Hexadecimal color; #43B1F2 when absent.' }),
      attributes: t.arg({ type: 'JSON' }),
    },
    authScopes: minRole('agent'),
    resolve: async (_root, { project_id, ...input }, ctx) =>
      ctx.services.tags.create(project_id, (await ctx.principal())!.userId, definedArgs(input)),
  }),
  updateTag: t.field({
    type: Tag,
    nullable: false,
    args: {
      project_id: t.arg.string({ required: true }),
      id: t.arg.string({ required: true }),
      tag: t.arg.string(),
      color: t.arg.string(),
      attributes: t.arg({ type: 'JSON' }),
    },
    authScopes: minRole('agent'),
    resolve: (_root, { project_id, id, ...input }, ctx) => ctx.services.tags.update(project_id, id, definedArgs(input)),
  }),
  deleteTag: t.field({
    type: Tag,
    nullable: false,
    args: { project_id: t.arg.string({ required: true }), id: t.arg.string({ required: true }) },
    authScopes: minRole('agent'),
    resolve: (_root, args, ctx) => ctx.services.tags.remove(args.project_id, args.id),
  }),
}));

export const routes: RestRoutes = {
  'Query.tags': { method: 'GET', path: '/:project_id/tags' },
  'Query.tag': { method: 'GET', path: '/:project_id/tags/:id' },
  'Mutation.createTag': { method: 'POST', path: '/:project_id/tags' },
  'Mutation.updateTag': { method: 'PUT', path: '/:project_id/tags/:id' },
  'Mutation.deleteTag': { method: 'DELETE', path: '/:project_id/tags/:id' },
};
