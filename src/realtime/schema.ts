import { builder } from '../graphql/builder.js';
import { minRole } from '../graphql/scopes.js';
import type { LoggedEvent } from '../infra/event-log.js';
import { projectEvents } from './event-stream.js';

export const DomainEvent = builder.objectRef<LoggedEvent>('DomainEvent').implement({
  description: 'An entry of the project event log.',
  fields: (t) => ({
    id: t.exposeString('id', { nullable: false }),
    id_project: t.string({ nullable: false, resolve: (e) => e.projectId }),
    seq: t.exposeInt('seq', { nullable: false, description: 'Per-project, increasing by one with each event.' }),
    name: t.exposeString('name', { nullable: false }),
    subject: t.exposeString('subject', { nullable: false, description: 'Identifier of the record concerned.' }),
    payload: t.field({ type: 'JSON', resolve: (e) => e.payload }),
    createdAt: t.exposeString('createdAt', { nullable: false }),
  }),
});

builder.subscriptionField('projectEvents', (t) =>
  t.field({
    type: DomainEvent,
    nullable: false,
    description: 'Every event of the project. Pass `after` (a seq you have) to first receive what you missed.',
    args: { project_id: t.arg.string({ required: true }), after: t.arg.int() },
    authScopes: minRole('agent'),
    // Scope checks guard `resolve`; a subscription must also be refused before it starts.
    subscribe: async (_root, args, ctx) => {
      const events = projectEvents(ctx.services.infra, args.project_id, args.after);
      await ctx.requireRole(args.project_id, 'agent');
      return events.stream();
    },
    resolve: (event) => event,
  }),
);
