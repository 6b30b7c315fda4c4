import { builder } from '../../graphql/builder.js';
import type { RestAliases, RestRoutes } from '../../rest/route-config.js';
import { minRole } from '../../graphql/scopes.js';
import { actorOf, memberOf } from '../requests/actor.js';
import { Request } from '../requests/schema.js';
import { widgetMessageDefaults, type WidgetSettings as WidgetSettingsShape } from './service.js';

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

// What the widget asks before anyone signs in, and who could answer: routing's answers.
const AvailableTeammate = builder
  .objectRef<{ id: string; firstname: string; lastname: string; project_user_id: string }>('AvailableTeammate')
  .implement({
    fields: (t) => ({
      id: t.exposeString('id', { nullable: false, description: 'The user id.' }),
      firstname: t.exposeString('firstname'),
      lastname: t.exposeString('lastname'),
      project_user_id: t.exposeString('project_user_id'),
    }),
  });

const WidgetSettings = builder.objectRef<WidgetSettingsShape>('WidgetSettings').implement({
  description: 'What the chat widget needs before the visitor signs in. Nobody to answer (`isopen` false or `available_agents` 0): show `offline_msg` and ask for the visitor\'s e-mail.',
  fields: (t) => ({
    id_project: t.exposeString('id_project', { nullable: false }),
    name: t.exposeString('name'),
    widget: t.field({ type: 'JSON', resolve: (w) => w.widget }),
    isopen: t.exposeBoolean('isopen', { description: 'Inside the project\'s operating hours (always true without them).' }),
    available_agents: t.exposeInt('available_agents', { description: 'Agents who could take a conversation now (available, under capacity); 0 outside operating hours.' }),
    online_msg: t.exposeString('online_msg', {
      description: `The default department's online message, else "${widgetMessageDefaults.online_msg}".`,
    }),
    offline_msg: t.exposeString('offline_msg', {
      description: `The default department's offline message, else "${widgetMessageDefaults.offline_msg}".`,
    }),
  }),
});

builder.queryFields((t) => ({
  availableTeammates: t.field({
    type: [AvailableTeammate],
    nullable: false,
    args: { project_id: t.arg.string({ required: true }), raw: t.arg.boolean() },
    authScopes: minRole('user'),
    resolve: (_root, args, ctx) => ctx.services.routing.availableAgents(args.project_id, args.raw ?? false),
  }),
  widgetSettings: t.field({
    type: WidgetSettings,
    nullable: false,
    description: 'Public: the widget loads it before anyone signs in.',
    args: { project_id: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) => ctx.services.routing.widgetSettings(args.project_id),
  }),
}));

export const routes: RestRoutes = {
  'Query.availableTeammates': { method: 'GET', path: '/projects/:project_id/users/availables' },
  'Query.widgetSettings': { method: 'GET', path: '/:project_id/widgets' },
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
