import { builder } from '../../graphql/builder.js';
import { recordFields } from '../../graphql/record-fields.js';
import type { RestRoutes } from '../../rest/route-config.js';
import { minRole } from '../../graphql/scopes.js';
import { definedArgs } from '../../graphql/args.js';
import type { GroupRecord } from './service.js';

export const Group = builder.objectRef<GroupRecord>('Group').implement({
  description: 'Teammates a department can route requests to.',
  fields: (t) => ({
    ...recordFields(t),
    id_project: t.exposeString('id_project', { nullable: false }),
    name: t.exposeString('name', { nullable: false }),
    members: t.exposeStringList('members', { nullable: false, description: 'User ids of the members.' }),
    trashed: t.exposeBoolean('trashed', { nullable: false, description: 'True once the group is deleted.' }),
    attributes: t.field({ type: 'JSON', resolve: (g) => g.attributes }),
    createdBy: t.exposeString('createdBy'),
  }),
});

builder.queryFields((t) => ({
  groups: t.field({
    type: [Group],
    nullable: false,
    description: 'Groups not deleted.',
    args: { project_id: t.arg.string({ required: true }) },
    authScopes: minRole('agent'),
    resolve: (_root, args, ctx) => ctx.services.groups.list(args.project_id),
  }),
  group: t.field({
    type: Group,
    nullable: false,
    description: 'A group; a deleted one shows `trashed: true`.',
    args: { project_id: t.arg.string({ required: true }), id: t.arg.string({ required: true }) },
    authScopes: minRole('agent'),
    resolve: (_root, args, ctx) => ctx.services.groups.get(args.project_id, args.id),
  }),
}));

builder.mutationFields((t) => ({
  createGroup: t.field({
    type: Group,
    nullable: false,
    args: {
      project_id: t.arg.string({ required: true }),
      name: t.arg.string(),
      members: t.arg.stringList({ description: 'Teammate ids or user ids; stored as user ids.' }),
      attributes: t.arg({ type: 'JSON' }),
    },
    authScopes: minRole('admin'),
    resolve: async (_root, { project_id, ...input }, ctx) =>
      ctx.services.groups.create(project_id, (await ctx.principal())!.userId, definedArgs(input)),
  }),
  updateGroup: t.field({
    type: Group,
    nullable: false,
    description: 'Changes the fields given; `members` replaces the whole list.',
    args: {
      project_id: t.arg.string({ required: true }),
      id: t.arg.string({ required: true }),
      name: t.arg.string(),
      members: t.arg.stringList({ description: 'Teammate ids or user ids; stored as user ids.' }),
      attributes: t.arg({ type: 'JSON' }),
    },
    authScopes: minRole('admin'),
    resolve: (_root, { project_id, id, ...input }, ctx) => ctx.services.groups.update(project_id, id, definedArgs(input)),
  }),
  deleteGroup: t.field({
    type: Group,
    nullable: false,
    description: 'Marks the group trashed. A group a department routes to cannot be deleted (409).',
    args: { project_id: t.arg.string({ required: true }), id: t.arg.string({ required: true }) },
    authScopes: minRole('admin'),
    resolve: (_root, args, ctx) => ctx.services.groups.remove(args.project_id, args.id),
  }),
}));

export const routes: RestRoutes = {
  'Query.groups': { method: 'GET', path: '/:project_id/groups' },
  'Query.group': { method: 'GET', path: '/:project_id/groups/:id' },
  'Mutation.createGroup': { method: 'POST', path: '/:project_id/groups' },
  'Mutation.updateGroup': { method: 'PUT', path: '/:project_id/groups/:id' },
  'Mutation.deleteGroup': { method: 'DELETE', path: '/:project_id/groups/:id' },
};
