import { builder } from '../../graphql/builder.js';
import { recordFields } from '../../graphql/record-fields.js';
import type { RestRoutes } from '../../rest/route-config.js';
import { minRole } from '../../graphql/scopes.js';
import { definedArgs } from '../../graphql/args.js';
import type { Context } from '../../context.js';
import { forbidden } from '../../errors.js';
import type { ProjectRecord } from './service.js';
import type { ProjectUser } from '../../generated/prisma/client.js';

const Channel = builder.objectRef<{ name: string }>('Channel').implement({
  description: 'A messaging channel the project is reachable through.',
  fields: (t) => ({ name: t.exposeString('name', { nullable: false }) }),
});

export const Project = builder.objectRef<ProjectRecord>('Project').implement({
  fields: (t) => ({
    ...recordFields(t),
    name: t.exposeString('name', { nullable: false }),
    activeOperatingHours: t.exposeBoolean('activeOperatingHours'),
    retention_days: t.exposeInt('retention_days', { description: 'Closed conversations older than this many days are removed with their messages and files; null keeps them.' }),
    operatingHours: t.string({
      description: 'JSON-encoded: weekday keys "0" (Sunday) to "6" with [{start, end}] in HH:MM, plus tzname.',
      resolve: (p) => (p.operatingHours ? JSON.stringify(p.operatingHours) : null),
    }),
    settings: t.field({ type: 'JSON', resolve: (p) => p.settings }),
    widget: t.field({ type: 'JSON', resolve: (p) => p.widget }),
    profile: t.field({ type: 'JSON', resolve: (p) => p.profile }),
    channels: t.field({
      type: [Channel],
      nullable: false,
      resolve: (p) => (Array.isArray(p.channels) ? (p.channels as unknown as Array<{ name: string }>) : []),
    }),
    status: t.exposeInt('status'),
    versions: t.int({ resolve: (p) => p.v }),
    createdBy: t.exposeString('createdBy'),
    // A self-hosted project has no trial and no subscription to expire.
    trialExpired: t.boolean({ resolve: () => false }),
    trialDaysLeft: t.int({ resolve: () => 0 }),
    isActiveSubscription: t.boolean({ resolve: () => true }),
  }),
});

type Membership = ProjectUser & { project: ProjectRecord };

const ProjectMembership = builder.objectRef<Membership>('ProjectMembership').implement({
  description: 'One of the caller\'s projects, with the caller\'s role in it.',
  fields: (t) => ({
    ...recordFields(t),
    id_project: t.field({ type: Project, resolve: (m) => m.project }),
    id_user: t.exposeString('id_user'),
    role: t.exposeString('role'),
    user_available: t.exposeBoolean('user_available'),
    createdBy: t.exposeString('createdBy'),
  }),
});

const OpenState = builder.objectRef<{ isopen: boolean }>('OpenState').implement({
  fields: (t) => ({ isopen: t.exposeBoolean('isopen', { nullable: false }) }),
});

const ProjectJwtSecret = builder.objectRef<{ jwtSecret: string }>('ProjectJwtSecret').implement({
  description: 'The secret a project\'s own site signs custom tokens with. Shown only when generated.',
  fields: (t) => ({ jwtSecret: t.exposeString('jwtSecret', { nullable: false }) }),
});

/**
 * The project list's minimum role is `user`: an anonymous visitor (whose memberships are all
 * `guest`) is refused; signed-in callers, who hold `user` or above, see their memberships.
 */
const signedIn = async (_root: unknown, _args: unknown, ctx: Context) => {
  const principal = await ctx.principal();
  if (principal?.anonymous) throw forbidden('an anonymous visitor may not list projects; sign in first');
  return { authenticated: true };
};

const WidgetUpdate = builder.objectRef<{ widget: unknown }>('WidgetUpdate').implement({
  fields: (t) => ({ widget: t.field({ type: 'JSON', resolve: (w) => w.widget }) }),
});

builder.queryFields((t) => ({
  projects: t.field({
    type: [ProjectMembership],
    nullable: false,
    authScopes: signedIn,
    resolve: async (_root, _args, ctx) => ctx.services.projects.memberships((await ctx.principal())!),
  }),
  project: t.field({
    type: Project,
    nullable: false,
    args: { project_id: t.arg.string({ required: true }) },
    description: 'Its owner can read a disabled project (to enable it again); everyone else gets 403.',
    authScopes: minRole('agent', { ownerWhileDisabled: true }),
    resolve: (_root, args, ctx) => ctx.services.projects.get(args.project_id),
  }),
  projectIsOpen: t.field({
    type: OpenState,
    nullable: false,
    description: 'Public: the widget asks before anyone signs in.',
    args: { project_id: t.arg.string({ required: true }) },
    resolve: async (_root, args, ctx) => ({
      isopen: ctx.services.projects.isOpen(await ctx.services.projects.assertOpen(args.project_id)),
    }),
  }),
}));

builder.mutationFields((t) => ({
  createProject: t.field({
    type: Project,
    nullable: false,
    args: { name: t.arg.string() },
    authScopes: { authenticated: true },
    resolve: async (_root, args, ctx) => ctx.services.projects.create((await ctx.principal())!, args),
  }),
  updateProject: t.field({
    type: Project,
    nullable: false,
    args: {
      project_id: t.arg.string({ required: true }),
      name: t.arg.string(),
      settings: t.arg({ type: 'JSON' }),
      activeOperatingHours: t.arg.boolean(),
      retention_days: t.arg.int({ description: 'Days a closed conversation is kept; 0 keeps them forever.' }),
      operatingHours: t.arg({ type: 'JSON', description: 'An object or its JSON-encoded string.' }),
      status: t.arg.int({
        description:
          'Owner only: 100 active, 0 disabled. A disabled project refuses every call (members, visitors, bots, API keys; live subscriptions end) but its owner\'s reading it and enabling it again with `status: 100`.',
      }),
    },
    authScopes: minRole('admin', { ownerWhileDisabled: true }),
    resolve: async (_root, { project_id, ...input }, ctx) =>
      ctx.services.projects.update(project_id, definedArgs(input), (await ctx.teammate(project_id, { ownerCall: true }))!.role),
  }),
  deleteProject: t.field({
    type: Project,
    nullable: false,
    description:
      'Owner only. Answers at once; from then on every call about the project answers 404, its live subscriptions end and its webhooks stop; a background job removes its data (files included).',
    args: { project_id: t.arg.string({ required: true }) },
    authScopes: minRole('owner', { ownerWhileDisabled: true }),
    resolve: (_root, args, ctx) => ctx.services.projects.remove(args.project_id),
  }),
  generateJwtSecret: t.field({
    type: ProjectJwtSecret,
    nullable: false,
    description: 'Creates or replaces the secret for custom tokens (signinWithCustomToken); tokens signed with the old one stop working.',
    args: { project_id: t.arg.string({ required: true }) },
    authScopes: minRole('admin'),
    resolve: async (_root, args, ctx) => ({ jwtSecret: await ctx.services.projects.rotateJwtSecret(args.project_id) }),
  }),
  updateWidget: t.field({
    type: WidgetUpdate,
    nullable: false,
    args: { project_id: t.arg.string({ required: true }), widget: t.arg({ type: 'JSON' }) },
    authScopes: minRole('user'),
    resolve: async (_root, args, ctx) => {
      const project = await ctx.services.projects.updateWidget(args.project_id, args.widget);
      return { widget: project.widget };
    },
  }),
}));

export const routes: RestRoutes = {
  'Query.projects': { method: 'GET', path: '/projects' },
  'Query.project': { method: 'GET', path: '/projects/:project_id' },
  'Query.projectIsOpen': { method: 'GET', path: '/projects/:project_id/isopen' },
  'Mutation.createProject': { method: 'POST', path: '/projects' },
  'Mutation.updateProject': { method: 'PUT', path: '/projects/:project_id' },
  'Mutation.deleteProject': { method: 'DELETE', path: '/projects/:project_id' },
  'Mutation.updateWidget': { method: 'PUT', path: '/projects/:project_id/availables' },
  'Mutation.generateJwtSecret': { method: 'POST', path: '/:project_id/keys/generate' },
};
