import { builder } from '../../graphql/builder.js';
import { recordFields } from '../../graphql/record-fields.js';
import type { RestRoutes } from '../../rest/route-config.js';
import { minRole } from '../../graphql/scopes.js';
import { definedArgs } from '../../graphql/args.js';
import type { CustomEventRecord } from './service.js';
import { Teammate } from '../teammates/schema.js';

// Anyone in the project, a widget visitor included, may fire an event; reading them needs an agent.

export const CustomEvent = builder.objectRef<CustomEventRecord>('CustomEvent').implement({
  description: 'An event fired in a project: `event.emit.<EVENT_NAME>`, or a platform name such as `faqbot.answer_not_found`.',
  fields: (t) => ({
    ...recordFields(t),
    name: t.exposeString('name', { nullable: false }),
    project_user: t.field({
      type: Teammate,
      description: 'The teammate (project user) who fired it.',
      resolve: async (e, _args, ctx) =>
        e.teammate !== undefined ? e.teammate : (await ctx.services.customEvents.withTeammates(e.id_project, [e]))[0].teammate,
    }),
    attributes: t.field({ type: 'JSON', nullable: false, resolve: (e) => e.attributes }),
    id_project: t.exposeString('id_project', { nullable: false }),
    createdBy: t.exposeString('createdBy', { description: 'The user id of the teammate who fired it.' }),
  }),
});

builder.queryFields((t) => ({
  customEvents: t.field({
    type: [CustomEvent],
    nullable: false,
    description: 'Custom events of the project, newest first unless sorted otherwise; 40 a page.',
    args: {
      project_id: t.arg.string({ required: true }),
      sortField: t.arg.string({ description: '`createdAt` (default), `updatedAt` or `name`.' }),
      direction: t.arg.int({ description: '1 ascending, -1 descending (default).' }),
      page: t.arg.int({ description: 'Zero-based page number (default 0).' }),
      limit: t.arg.int({ description: 'Page size, 1 to 100 (default 40).' }),
    },
    authScopes: minRole('agent'),
    resolve: (_root, { project_id, ...query }, ctx) => ctx.services.customEvents.list(project_id, definedArgs(query)),
  }),
  customEvent: t.field({
    type: CustomEvent,
    nullable: false,
    args: { project_id: t.arg.string({ required: true }), id: t.arg.string({ required: true }) },
    authScopes: minRole('agent'),
    resolve: (_root, args, ctx) => ctx.services.customEvents.get(args.project_id, args.id),
  }),
}));

builder.mutationFields((t) => ({
  fireCustomEvent: t.field({
    type: CustomEvent,
    nullable: false,
    description: 'Records the event and delivers it, under its own name, to subscriptions and webhooks.',
    args: {
      project_id: t.arg.string({ required: true }),
      name: t.arg.string({ description: '`event.emit.<EVENT_NAME>`, or any dot-separated name (delivered as `event.emit.<name>`).' }),
      attributes: t.arg({ type: 'JSON' }),
    },
    authScopes: minRole('guest'),
    resolve: async (_root, { project_id, ...input }, ctx) =>
      ctx.services.customEvents.fire(project_id, (await ctx.teammate(project_id))!, definedArgs(input)),
  }),
}));

export const routes: RestRoutes = {
  'Query.customEvents': { method: 'GET', path: '/:project_id/events' },
  'Query.customEvent': { method: 'GET', path: '/:project_id/events/:id' },
  'Mutation.fireCustomEvent': { method: 'POST', path: '/:project_id/events' },
};
