import { isBotSender } from '../auth/bot-identity.js';
import { definedArgs } from '../../graphql/args.js';
import { builder } from '../../graphql/builder.js';
import { recordFields } from '../../graphql/record-fields.js';
import type { RestRoutes } from '../../rest/route-config.js';
import { minRole } from '../../graphql/scopes.js';
import type { LoggedEvent } from '../../infra/event-log.js';
import { projectEvents } from '../../realtime/event-stream.js';
import { actorOf, memberOf } from '../requests/actor.js';
import { relationsOf } from '../requests/relations.js';
import { Request } from '../requests/schema.js';
import { roleAtLeast } from '../teammates/roles.js';
import type { MessageRecord } from './service.js';
import { seesMessage } from './visibility.js';

export const Message = builder.objectRef<MessageRecord>('Message').implement({
  description: 'Status: FAILED -100, SENDING 0, SENT 100, DELIVERED 150, RECEIVED 200, RETURN_RECEIPT 250, SEEN 300.',
  fields: (t) => ({
    ...recordFields(t),
    id_project: t.exposeString('id_project', { nullable: false }),
    sender: t.exposeString('sender', { nullable: false }),
    senderFullname: t.exposeString('senderFullname'),
    recipient: t.exposeString('recipient', { nullable: false, description: 'The request_id of the request.' }),
    status: t.exposeInt('status', { nullable: false }),
    text: t.exposeString('text'),
    type: t.exposeString('type', { nullable: false }),
    metadata: t.field({ type: 'JSON', resolve: (m) => m.metadata }),
    attributes: t.field({ type: 'JSON', resolve: (m) => m.attributes }),
    receipts: t.field({ type: 'JSON', description: 'Per participant: user id to 150, 250 or 300.', resolve: (m) => m.receipts }),
    createdBy: t.exposeString('createdBy'),
    hidden: t.exposeBoolean('hidden', {
      nullable: false,
      description: 'A notice for the agents (attributes `subtype: "info"` or `hidden: true`): end users never see it.',
    }),
    sentByBot: t.boolean({
      nullable: false,
      description: 'Written by one of the project\'s bots (its sender is the bot\'s).',
      resolve: (m) => isBotSender(m.sender),
    }),
    request: t.field({
      type: Request,
      resolve: (m, _args, ctx) => m.request ?? relationsOf(ctx).request(`${m.id_project} ${m.request_id}`),
    }),
  }),
});

interface MessageEventShape {
  event: LoggedEvent;
}

const MessageEvent = builder.objectRef<MessageEventShape>('MessageEvent').implement({
  description: 'A message created or updated; pass the last `seq` you saw as `after` to resume without a gap.',
  fields: (t) => ({
    seq: t.int({ nullable: false, resolve: ({ event }) => event.seq }),
    name: t.string({ nullable: false, description: 'message.create or message.update', resolve: ({ event }) => event.name }),
    message: t.field({ type: Message, resolve: ({ event }, _args, ctx) => ctx.services.messages.fromEvent(event) }),
  }),
});

builder.queryFields((t) => ({
  messages: t.field({
    type: [Message],
    nullable: false,
    description: 'Messages of a request, oldest first (end users do not see hidden ones).',
    args: {
      project_id: t.arg.string({ required: true }),
      request_id: t.arg.string({ required: true }),
      page: t.arg.int({ description: 'From 0.' }),
      limit: t.arg.int({ description: '1 to 100, default 100.' }),
    },
    authScopes: minRole('guest'),
    resolve: async (_root, { project_id, request_id, ...query }, ctx) =>
      ctx.services.messages.list(project_id, await memberOf(ctx, project_id), request_id, definedArgs(query)),
  }),
  message: t.field({
    type: Message,
    nullable: false,
    args: {
      project_id: t.arg.string({ required: true }),
      request_id: t.arg.string({ required: true }),
      message_id: t.arg.string({ required: true }),
    },
    authScopes: minRole('guest'),
    resolve: async (_root, args, ctx) =>
      ctx.services.messages.get(args.project_id, await memberOf(ctx, args.project_id), args.request_id, args.message_id),
  }),
}));

builder.mutationFields((t) => {
  const target = { project_id: t.arg.string({ required: true }), request_id: t.arg.string({ required: true }) };
  return {
    sendMessage: t.field({
      type: Message,
      nullable: false,
      description:
        'Sends a message as the caller, creating the request when it does not exist (departmentid, sourcePage, language, userAgent and channel count only then).',
      args: {
        ...target,
        text: t.arg.string(),
        type: t.arg.string(),
        metadata: t.arg({ type: 'JSON' }),
        attributes: t.arg({ type: 'JSON' }),
        departmentid: t.arg.string(),
        sourcePage: t.arg.string(),
        language: t.arg.string(),
        userAgent: t.arg.string(),
        channel: t.arg({ type: 'JSON' }),
      },
      authScopes: minRole('guest', { botsInRequest: true }),
      resolve: async (_root, { project_id, request_id, ...input }, ctx) =>
        ctx.services.messages.post(project_id, await actorOf(ctx, project_id), request_id, definedArgs(input), ctx.clientAddress),
    }),
    importMessages: t.field({
      type: Message,
      nullable: false,
      description: 'Mass import, all or nothing, keeping senders and timestamps; answers the last message. REST: a JSON array body.',
      args: { ...target, messages: t.arg({ type: 'JSON' }) },
      authScopes: minRole('agent'),
      resolve: async (_root, args, ctx) =>
        ctx.services.messages.import(args.project_id, await memberOf(ctx, args.project_id), args.request_id, args.messages ?? undefined),
    }),
    acknowledgeMessage: t.field({
      type: Message,
      nullable: false,
      description: 'Records DELIVERED (150), RETURN_RECEIPT (250) or SEEN (300) for the caller; receipts never move back.',
      args: { ...target, message_id: t.arg.string({ required: true }), status: t.arg.int() },
      authScopes: minRole('guest'),
      resolve: async (_root, args, ctx) =>
        ctx.services.messages.acknowledge(args.project_id, await memberOf(ctx, args.project_id), args.request_id, args.message_id, {
          status: args.status ?? undefined,
        }),
    }),
  };
});

builder.subscriptionField('requestMessages', (t) =>
  t.field({
    type: MessageEvent,
    nullable: false,
    description: 'New and updated messages of a request. `after`: the last seq you have, to first receive what you missed.',
    args: { project_id: t.arg.string({ required: true }), request_id: t.arg.string({ required: true }), after: t.arg.int() },
    authScopes: minRole('guest'),
    subscribe: async (_root, args, ctx) => {
      const events = projectEvents(ctx.services.infra, args.project_id, args.after);
      const member = await memberOf(ctx, args.project_id);
      await ctx.services.requests.get(args.project_id, member, args.request_id);
      return events.stream(
        (event) =>
          (event.name === 'message.create' || event.name === 'message.update') &&
          event.payload.request_id === args.request_id &&
          seesMessage(member, { hidden: event.payload.hidden === true }),
        args.request_id,
      );
    },
    resolve: (event) => ({ event }),
  }),
);

export const routes: RestRoutes = {
  'Query.messages': { method: 'GET', path: '/:project_id/requests/:request_id/messages' },
  'Query.message': { method: 'GET', path: '/:project_id/requests/:request_id/messages/:message_id' },
  'Mutation.sendMessage': { method: 'POST', path: '/:project_id/requests/:request_id/messages' },
  'Mutation.importMessages': { method: 'POST', path: '/:project_id/requests/:request_id/messages/multi', arrayBody: 'messages' },
  'Mutation.acknowledgeMessage': { method: 'PUT', path: '/:project_id/requests/:request_id/messages/:message_id/status' },
};
