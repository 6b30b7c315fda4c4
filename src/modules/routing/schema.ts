import { builder, type RestAliases, type RestRoutes } from '../../graphql/record.js';
import { minRole } from '../../graphql/scopes.js';
import { actorOf, memberOf } from '../requests/actor.js';
import { Request } from '../requests/schema.js';

builder.mutationFields((t) => {
  const target = { project_id: t.arg.string({ required: true }), request_id: t.arg.string({ required: true }) };
  return {
    routeRequest: t.field({
      type: Request,
      nullable: false,
      description:
        'Routes the request to a department as on creation; `nobot` keeps its bot out (a bot hands off this way). Also at PUT .../assign, where `no_populate` is accepted and ignored (the request always comes whole).',
      args: { ...target, departmentid: t.arg.string(), nobot: t.arg.boolean() },
      authScopes: minRole('agent', { botsInRequest: true }),
      resolve: async (_root, args, ctx) =>
        ctx.services.assignments.route(args.project_id, await actorOf(ctx, args.project_id), args.request_id, {
          departmentid: args.departmentid ?? undefined,
          nobot: args.nobot ?? undefined,
        }),
    }),
    moveRequestToAgent: t.field({
      type: Request,
      nullable: false,
      description:
        'Routes the request again to the human agents of its department (the default department when it has none); its bots leave. A bot hands off this way too.',
      args: target,
      authScopes: minRole('agent', { botsInRequest: true }),
      resolve: async (_root, args, ctx) =>
        ctx.services.assignments.toAgents(args.project_id, await actorOf(ctx, args.project_id), args.request_id),
    }),
    takeRequest: t.field({
      type: Request,
      nullable: false,
      description: 'The caller starts serving a request nobody serves (pooled routing), within their max_served_chat.',
      args: target,
      authScopes: minRole('agent'),
      resolve: async (_root, args, ctx) =>
        ctx.services.assignments.take(args.project_id, await memberOf(ctx, args.project_id), args.request_id),
    }),
    addRequestParticipant: t.field({
      type: Request,
      nullable: false,
      description: '`member`: a teammate user id, or `bot_<id>`.',
      args: { ...target, member: t.arg.string() },
      authScopes: minRole('agent'),
      resolve: async (_root, args, ctx) =>
        ctx.services.assignments.addParticipant(args.project_id, await memberOf(ctx, args.project_id), args.request_id, args.member),
    }),
    removeRequestParticipant: t.field({
      type: Request,
      nullable: false,
      description:
        '`member`: a user id or `bot_<id>` (in the path at DELETE .../participants/:member). Someone who does not take part: nothing changes (the request is answered).',
      args: { ...target, member: t.arg.string() },
      authScopes: minRole('agent'),
      resolve: async (_root, args, ctx) =>
        ctx.services.assignments.removeParticipant(args.project_id, await memberOf(ctx, args.project_id), args.request_id, args.member),
    }),
    setRequestParticipants: t.field({
      type: Request,
      nullable: false,
      description: 'Replaces the participants (REST: a JSON array body, or {participants}).',
      args: { ...target, participants: t.arg.stringList() },
      authScopes: minRole('agent'),
      resolve: async (_root, args, ctx) =>
        ctx.services.assignments.setParticipants(args.project_id, await memberOf(ctx, args.project_id), args.request_id, args.participants),
    }),
  };
});

export const routes: RestRoutes = {
  'Mutation.routeRequest': { method: 'PUT', path: '/:project_id/requests/:request_id/departments' },
  'Mutation.moveRequestToAgent': { method: 'PUT', path: '/:project_id/requests/:request_id/agent' },
  'Mutation.takeRequest': { method: 'PUT', path: '/:project_id/requests/:request_id/take' },
  'Mutation.addRequestParticipant': { method: 'POST', path: '/:project_id/requests/:request_id/participants' },
  'Mutation.removeRequestParticipant': { method: 'DELETE', path: '/:project_id/requests/:request_id/participants' },
  'Mutation.setRequestParticipants': { method: 'PUT', path: '/:project_id/requests/:request_id/participants', arrayBody: 'participants' },
};

/** The paths the official JavaScript SDK calls: `assign`, and the participant in the path. */
export const aliases: RestAliases = {
  'Mutation.routeRequest': [{ method: 'PUT', path: '/:project_id/requests/:request_id/assign' }],
  'Mutation.removeRequestParticipant': [{ method: 'DELETE', path: '/:project_id/requests/:request_id/participants/:member' }],
};
