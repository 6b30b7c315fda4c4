import { definedArgs } from '../../graphql/args.js';
import { builder } from '../../graphql/builder.js';
import type { RestRoutes } from '../../rest/route-config.js';
import { minRole } from '../../graphql/scopes.js';
import type { ScheduledMessage as ScheduledRow } from '../../generated/prisma/client.js';
import { memberOf } from '../requests/actor.js';

export const ScheduledMessage = builder.objectRef<ScheduledRow>('ScheduledMessage').implement({
  description:
    'A message an agent wrote to be sent at `scheduled_at`. status: `scheduled` (editable and cancellable), `sent` (message_id is the message), `cancelled`, or `skipped` (not sent: `reason` is closed, deleted, sender_left or sender_cannot_write).',
  fields: (t) => ({
    _id: t.exposeString('id', { nullable: false }),
    id: t.exposeString('id', { nullable: false }),
    createdAt: t.field({ type: 'DateTime', nullable: false, resolve: (m) => m.createdAt }),
    updatedAt: t.field({ type: 'DateTime', nullable: false, resolve: (m) => m.updatedAt }),
    id_project: t.exposeString('id_project', { nullable: false }),
    request_id: t.exposeString('request_id', { nullable: false }),
    sender: t.exposeString('sender', { nullable: false }),
    text: t.exposeString('text', { nullable: false }),
    scheduled_at: t.field({ type: 'DateTime', nullable: false, resolve: (m) => m.scheduled_at }),
    status: t.exposeString('status', { nullable: false }),
    message_id: t.exposeString('messageId'),
    reason: t.exposeString('reason'),
  }),
});


builder.queryFields((t) => ({
  scheduledMessages: t.field({
    type: [ScheduledMessage],
    nullable: false,
    description: "A request's scheduled messages, whatever their status, soonest first (agents who may see the request).",
    args: { project_id: t.arg.string({ required: true }), request_id: t.arg.string({ required: true }) },
    authScopes: minRole('agent'),
    resolve: async (_root, args, ctx) => ctx.services.scheduledMessages.list(args.project_id, await memberOf(ctx, args.project_id), args.request_id),
  }),
}));

builder.mutationFields((t) => ({
  scheduleMessage: t.field({
    type: ScheduledMessage,
    nullable: false,
    description: 'Writes a message to be sent at `scheduled_at` (ISO-8601, in the future, at most a year ahead) in an open request.',
    args: { project_id: t.arg.string({ required: true }), request_id: t.arg.string({ required: true }), text: t.arg.string(), scheduled_at: t.arg.string() },
    authScopes: minRole('agent'),
    resolve: async (_root, { project_id, request_id, ...input }, ctx) =>
      ctx.services.scheduledMessages.schedule(project_id, await memberOf(ctx, project_id), request_id, definedArgs(input)),
  }),
  updateScheduledMessage: t.field({
    type: ScheduledMessage,
    nullable: false,
    description: 'Changes the text or the time of a message still scheduled (409 once sent, cancelled or skipped).',
    args: { project_id: t.arg.string({ required: true }), request_id: t.arg.string({ required: true }), id: t.arg.string({ required: true }), text: t.arg.string(), scheduled_at: t.arg.string() },
    authScopes: minRole('agent'),
    resolve: async (_root, { project_id, request_id, id, ...input }, ctx) =>
      ctx.services.scheduledMessages.update(project_id, await memberOf(ctx, project_id), request_id, id, definedArgs(input)),
  }),
  cancelScheduledMessage: t.field({
    type: ScheduledMessage,
    nullable: false,
    description: 'Cancels a message still scheduled (409 once sent, cancelled or skipped).',
    args: { project_id: t.arg.string({ required: true }), request_id: t.arg.string({ required: true }), id: t.arg.string({ required: true }) },
    authScopes: minRole('agent'),
    resolve: async (_root, args, ctx) =>
      ctx.services.scheduledMessages.cancel(args.project_id, await memberOf(ctx, args.project_id), args.request_id, args.id),
  }),
}));

export const routes: RestRoutes = {
  'Query.scheduledMessages': { method: 'GET', path: '/:project_id/requests/:request_id/scheduled_messages' },
  'Mutation.scheduleMessage': { method: 'POST', path: '/:project_id/requests/:request_id/scheduled_messages' },
  'Mutation.updateScheduledMessage': { method: 'PATCH', path: '/:project_id/requests/:request_id/scheduled_messages/:id' },
  'Mutation.cancelScheduledMessage': { method: 'DELETE', path: '/:project_id/requests/:request_id/scheduled_messages/:id' },
};
