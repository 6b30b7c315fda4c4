import { builder } from '../../graphql/builder.js';
import { recordFields } from '../../graphql/record-fields.js';
import type { RestRoutes } from '../../rest/route-config.js';
import { minRole } from '../../graphql/scopes.js';
import { definedArgs } from '../../graphql/args.js';
import { User } from '../auth/schema.js';
import type { TeammateRecord } from './service.js';

interface PresenceState {
  status: string;
  changedAt?: string | null;
}

const Presence = builder.objectRef<PresenceState>('Presence').implement({
  description: 'Whether the teammate has a messaging app open.',
  fields: (t) => ({
    status: t.exposeString('status', { nullable: false, description: '`online` or `offline`.' }),
    changedAt: t.field({ type: 'DateTime', description: 'When it last changed; null until it first does.', resolve: (p) => p.changedAt ?? null }),
  }),
});

const offline: PresenceState = { status: 'offline' };

interface TagLabel {
  tag: string;
  color?: string | null;
}

const TeammateTag = builder.objectRef<TagLabel>('TeammateTag').implement({
  description: 'A tag on a teammate.',
  fields: (t) => ({
    tag: t.exposeString('tag', { nullable: false }),
    color: t.string({ description: 'Hexadecimal colour.', resolve: (l) => l.color ?? null }),
  }),
});

export const Teammate = builder.objectRef<TeammateRecord>('Teammate').implement({
  description: 'A user\'s membership in a project (a project user).',
  fields: (t) => ({
    ...recordFields(t),
    id_project: t.exposeString('id_project', { nullable: false }),
    id_user: t.field({ type: User, resolve: (m) => m.user }),
    role: t.exposeString('role', { nullable: false }),
    user_available: t.exposeBoolean('user_available'),
    max_served_chat: t.exposeInt('max_served_chat'),
    number_assigned_requests: t.exposeInt('number_assigned_requests'),
    status: t.exposeString('status', { description: '`active` or `disabled` (see updateTeammate).' }),
    isBusy: t.boolean({
      resolve: (m) => m.isBusy || (m.max_served_chat != null && m.number_assigned_requests >= m.max_served_chat),
    }),
    profileStatus: t.string({ resolve: (m) => (m.user_available ? 'available' : 'unavailable') }),
    attributes: t.field({ type: 'JSON', resolve: (m) => m.attributes }),
    tags: t.field({
      type: [TeammateTag],
      nullable: false,
      resolve: (m) => (Array.isArray(m.tags) ? (m.tags as unknown as TagLabel[]) : []),
    }),
    settings: t.field({ type: 'JSON', resolve: (m) => m.settings }),
    presence: t.field({
      type: Presence,
      nullable: false,
      resolve: (m) => (m.presence && typeof m.presence === 'object' ? (m.presence as unknown as PresenceState) : offline),
    }),
    isAuthenticated: t.exposeBoolean('isAuthenticated'),
    trashed: t.exposeBoolean('trashed'),
    createdBy: t.exposeString('createdBy'),
  }),
});

builder.queryFields((t) => ({
  teammates: t.field({
    type: [Teammate],
    nullable: false,
    args: { project_id: t.arg.string({ required: true }) },
    authScopes: minRole('agent'),
    resolve: (_root, args, ctx) => ctx.services.teammates.list(args.project_id),
  }),
  teammate: t.field({
    type: Teammate,
    nullable: false,
    args: { project_id: t.arg.string({ required: true }), project_user_id: t.arg.string({ required: true }) },
    authScopes: minRole('agent'),
    resolve: (_root, args, ctx) => ctx.services.teammates.get(args.project_id, args.project_user_id),
  }),
  teammateByUser: t.field({
    type: Teammate,
    nullable: false,
    args: { project_id: t.arg.string({ required: true }), user_id: t.arg.string({ required: true }) },
    authScopes: minRole('agent'),
    resolve: (_root, args, ctx) => ctx.services.teammates.getByUser(args.project_id, args.user_id),
  }),
  teammatesByUser: t.field({
    type: [Teammate],
    nullable: false,
    description: 'The teammate of a user, as the one-item array REST clients (the official SDK) expect; 404 when not a member.',
    args: { project_id: t.arg.string({ required: true }), user_id: t.arg.string({ required: true }) },
    authScopes: minRole('agent'),
    resolve: async (_root, args, ctx) => [await ctx.services.teammates.getByUser(args.project_id, args.user_id)],
  }),
}));

builder.mutationFields((t) => ({
  updateMyTeammate: t.field({
    type: Teammate,
    nullable: false,
    description: 'Updates the caller\'s own membership.',
    args: {
      project_id: t.arg.string({ required: true }),
      role: t.arg.string(),
      user_available: t.arg.boolean(),
      max_served_chat: t.arg.int(),
      attributes: t.arg({ type: 'JSON' }),
      settings: t.arg({ type: 'JSON' }),
    },
    authScopes: minRole('agent'),
    resolve: async (_root, { project_id, ...input }, ctx) =>
      ctx.services.teammates.updateSelf(project_id, (await ctx.teammate(project_id))!, definedArgs(input, ['max_served_chat'])),
  }),
  updateTeammate: t.field({
    type: Teammate,
    nullable: false,
    args: {
      project_id: t.arg.string({ required: true }),
      project_user_id: t.arg.string({ required: true }),
      role: t.arg.string(),
      user_available: t.arg.boolean(),
      max_served_chat: t.arg.int(),
      attributes: t.arg({ type: 'JSON' }),
      settings: t.arg({ type: 'JSON' }),
      status: t.arg.string({
        description: '`active` or `disabled`: a disabled teammate keeps their account and history, is not routed to, cannot act in the project, and their live subscriptions end.',
      }),
    },
    authScopes: minRole('admin'),
    resolve: async (_root, { project_id, project_user_id, ...input }, ctx) =>
      ctx.services.teammates.updateOther(project_id, (await ctx.teammate(project_id))!, project_user_id, definedArgs(input, ['max_served_chat'])),
  }),
  removeTeammate: t.field({
    type: Teammate,
    nullable: false,
    args: { project_id: t.arg.string({ required: true }), project_user_id: t.arg.string({ required: true }) },
    authScopes: minRole('admin'),
    resolve: async (_root, args, ctx) =>
      ctx.services.teammates.remove(args.project_id, (await ctx.teammate(args.project_id))!, args.project_user_id),
  }),
}));

export const routes: RestRoutes = {
  'Query.teammates': { method: 'GET', path: '/:project_id/project_users' },
  'Query.teammatesByUser': { method: 'GET', path: '/:project_id/project_users/users/:user_id' },
  'Query.teammate': { method: 'GET', path: '/:project_id/project_users/:project_user_id' },
  'Mutation.updateMyTeammate': { method: 'PUT', path: '/:project_id/project_users' },
  'Mutation.updateTeammate': { method: 'PUT', path: '/:project_id/project_users/:project_user_id' },
  'Mutation.removeTeammate': { method: 'DELETE', path: '/:project_id/project_users/:project_user_id' },
};
