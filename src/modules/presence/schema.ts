import { Repeater } from 'graphql-yoga';
import { builder } from '../../graphql/builder.js';
import type { RestRoutes } from '../../rest/route-config.js';
import { minRole } from '../../graphql/scopes.js';
import type { LoggedEvent } from '../../infra/event-log.js';
import { projectEvents } from '../../realtime/event-stream.js';
import { actorOf, memberOf } from '../requests/actor.js';
import { Teammate } from '../teammates/schema.js';
import { presenceEvent } from './service.js';

// Teammate presence (from the event log, resumable) and typing indicators (bus only, never stored).

interface PresenceShape {
  event: LoggedEvent;
}

const PresenceChange = builder.objectRef<PresenceShape>('PresenceChange').implement({
  description: 'A teammate went online or offline; pass the last `seq` as `after` to resume.',
  fields: (t) => ({
    seq: t.int({ nullable: false, resolve: ({ event }) => event.seq }),
    status: t.string({ nullable: false, description: 'online or offline', resolve: ({ event }) => String(event.payload.presence) }),
    changedAt: t.string({ nullable: false, resolve: ({ event }) => event.createdAt }),
    teammate: t.field({ type: Teammate, resolve: ({ event }, _args, ctx) => ctx.services.presence.teammateOf(event) }),
  }),
});

export interface TypingShape {
  request_id: string;
  user_id: string;
  fullname: string;
  typing: boolean;
  at: string;
}

const Typing = builder.objectRef<TypingShape>('Typing').implement({
  fields: (t) => ({
    request_id: t.exposeString('request_id', { nullable: false }),
    user_id: t.exposeString('user_id', { nullable: false }),
    fullname: t.exposeString('fullname'),
    typing: t.exposeBoolean('typing', { nullable: false }),
    at: t.exposeString('at', { nullable: false }),
  }),
});

const typingChannel = (projectId: string) => `typing:${projectId}`;

builder.mutationField('sendTyping', (t) =>
  t.field({
    type: Typing,
    nullable: false,
    description: 'Tells the other participants the caller is (or stopped) typing; nothing is stored.',
    args: {
      project_id: t.arg.string({ required: true }),
      request_id: t.arg.string({ required: true }),
      typing: t.arg.boolean({ description: 'Default true.' }),
    },
    authScopes: minRole('guest', { botsInRequest: true }),
    resolve: async (_root, args, ctx) => {
      const actor = await actorOf(ctx, args.project_id);
      if (actor.member) await ctx.services.requests.get(args.project_id, actor.member, args.request_id);
      const signal: TypingShape = {
        request_id: args.request_id,
        user_id: actor.userId,
        fullname: actor.fullname,
        typing: args.typing ?? true,
        at: new Date().toISOString(),
      };
      await ctx.services.infra.bus.publish(typingChannel(args.project_id), { ...signal });
      return signal;
    },
  }),
);

builder.subscriptionFields((t) => ({
  teammatePresence: t.field({
    type: PresenceChange,
    nullable: false,
    description: 'Teammates of the project going online or offline.',
    args: { project_id: t.arg.string({ required: true }), after: t.arg.int() },
    authScopes: minRole('agent'),
    subscribe: (_root, args, ctx) => {
      return projectEvents(ctx.services.infra, args.project_id, args.after).stream((event) => event.name === presenceEvent);
    },
    resolve: (event: LoggedEvent) => ({ event }),
  }),
  typing: t.field({
    type: Typing,
    nullable: false,
    description: 'Typing indicators of a request (live only: nothing is stored or replayed).',
    args: { project_id: t.arg.string({ required: true }), request_id: t.arg.string({ required: true }) },
    authScopes: minRole('guest'),
    subscribe: async (_root, args, ctx) => {
      await ctx.services.requests.get(args.project_id, await memberOf(ctx, args.project_id), args.request_id);
      const { bus } = ctx.services.infra;
      return new Repeater<TypingShape>(async (push, stop) => {
        const unsubscribe = bus.subscribe(typingChannel(args.project_id), (message) => {
          if (message.request_id === args.request_id) void push(message as unknown as TypingShape);
        });
        await stop;
        unsubscribe();
      });
    },
    resolve: (signal: TypingShape) => signal,
  }),
}));

export const routes: RestRoutes = {
  'Mutation.sendTyping': { method: 'POST', path: '/:project_id/requests/:request_id/typing' },
};
