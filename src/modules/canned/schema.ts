import { builder } from '../../graphql/builder.js';
import { recordFields } from '../../graphql/record-fields.js';
import type { RestRoutes } from '../../rest/route-config.js';
import { minRole } from '../../graphql/scopes.js';
import { definedArgs } from '../../graphql/args.js';
import type { CannedRecord, RenderedCanned } from './service.js';

export const CannedResponse = builder.objectRef<CannedRecord>('CannedResponse').implement({
  description: 'A reply agents reuse; `text` may contain $recipient_name and $agent_name.',
  fields: (t) => ({
    ...recordFields(t),
    id_project: t.exposeString('id_project', { nullable: false }),
    title: t.exposeString('title', { nullable: false }),
    text: t.exposeString('text', { nullable: false }),
    attributes: t.field({ type: 'JSON', resolve: (c) => c.attributes }),
    status: t.exposeInt('status'),
    createdBy: t.exposeString('createdBy'),
  }),
});

const RenderedCannedResponse = builder.objectRef<RenderedCanned>('RenderedCannedResponse').implement({
  description: 'A canned response with its variables replaced for one request.',
  fields: (t) => ({
    _id: t.exposeString('id', { nullable: false }),
    id: t.exposeString('id', { nullable: false }),
    title: t.exposeString('title', { nullable: false }),
    text: t.exposeString('text', { nullable: false }),
    request_id: t.exposeString('request_id', { nullable: false }),
  }),
});

builder.queryFields((t) => ({
  cannedResponses: t.field({
    type: [CannedResponse],
    nullable: false,
    args: {
      project_id: t.arg.string({ required: true }),
      sortField: t.arg.string({ description: '`createdAt` (default), `updatedAt` or `title`.' }),
      direction: t.arg.int({ description: '1 ascending, -1 descending (default).' }),
      page: t.arg.int({ description: '0 is the first page (default).' }),
      limit: t.arg.int({ description: 'Page size, 40 by default, at most 100.' }),
    },
    authScopes: minRole('agent'),
    resolve: (_root, { project_id, ...query }, ctx) => ctx.services.canned.list(project_id, definedArgs(query)),
  }),
  cannedResponse: t.field({
    type: CannedResponse,
    nullable: false,
    args: { project_id: t.arg.string({ required: true }), id: t.arg.string({ required: true }) },
    authScopes: minRole('agent'),
    resolve: (_root, args, ctx) => ctx.services.canned.get(args.project_id, args.id),
  }),
  renderCannedResponse: t.field({
    type: RenderedCannedResponse,
    nullable: false,
    description: 'Replaces $recipient_name with the request\'s lead name and $agent_name with the caller\'s name.',
    args: {
      project_id: t.arg.string({ required: true }),
      id: t.arg.string({ required: true }),
      request_id: t.arg.string({ description: 'The request\'s request_id (or its _id).' }),
    },
    authScopes: minRole('agent'),
    resolve: async (_root, { project_id, id, ...input }, ctx) =>
      ctx.services.canned.render(project_id, id, (await ctx.principal())!.user, definedArgs(input)),
  }),
}));

builder.mutationFields((t) => ({
  createCannedResponse: t.field({
    type: CannedResponse,
    nullable: false,
    args: {
      project_id: t.arg.string({ required: true }),
      title: t.arg.string(),
      text: t.arg.string(),
      attributes: t.arg({ type: 'JSON' }),
    },
    authScopes: minRole('agent'),
    resolve: async (_root, { project_id, ...input }, ctx) =>
      ctx.services.canned.create(project_id, (await ctx.principal())!.userId, definedArgs(input)),
  }),
  updateCannedResponse: t.field({
    type: CannedResponse,
    nullable: false,
    args: {
      project_id: t.arg.string({ required: true }),
      id: t.arg.string({ required: true }),
      title: t.arg.string(),
      text: t.arg.string(),
      attributes: t.arg({ type: 'JSON' }),
    },
    authScopes: minRole('agent'),
    resolve: (_root, { project_id, id, ...input }, ctx) => ctx.services.canned.update(project_id, id, definedArgs(input)),
  }),
  deleteCannedResponse: t.field({
    type: CannedResponse,
    nullable: false,
    args: { project_id: t.arg.string({ required: true }), id: t.arg.string({ required: true }) },
    authScopes: minRole('agent'),
    resolve: (_root, args, ctx) => ctx.services.canned.remove(args.project_id, args.id),
  }),
}));

export const routes: RestRoutes = {
  'Query.cannedResponses': { method: 'GET', path: '/:project_id/canned' },
  'Query.cannedResponse': { method: 'GET', path: '/:project_id/canned/:id' },
  'Query.renderCannedResponse': { method: 'GET', path: '/:project_id/canned/:id/render' },
  'Mutation.createCannedResponse': { method: 'POST', path: '/:project_id/canned' },
  'Mutation.updateCannedResponse': { method: 'PUT', path: '/:project_id/canned/:id' },
  'Mutation.deleteCannedResponse': { method: 'DELETE', path: '/:project_id/canned/:id' },
};
