import { builder } from '../../graphql/builder.js';
import { recordFields } from '../../graphql/record-fields.js';
import type { RestRoutes } from '../../rest/route-config.js';
import { minRole } from '../../graphql/scopes.js';
import { definedArgs } from '../../graphql/args.js';
import type { Invitation } from '../../generated/prisma/client.js';
import type { InviteOutcome } from './invitations.js';
import { Teammate } from './schema.js';
import { AuthResult } from '../auth/schema.js';

// Invitations: admins invite an e-mail, the holder of that account lists, accepts or declines.
// Nothing here is derived from the invitee's account, so an answer never tells whether one exists.

const PendingInvitation = builder.objectRef<Invitation>('PendingInvitation').implement({
  description: 'An invitation waiting for the invitee to accept or decline it.',
  fields: (t) => ({
    ...recordFields(t),
    id_project: t.exposeString('id_project'),
    project_name: t.string({
      description: 'The inviting project\'s name, for the invitee to recognise it.',
      resolve: (i, _args, ctx) => ctx.services.projects.get(i.id_project).then((p) => p.name, () => null),
    }),
    email: t.exposeString('email'),
    role: t.exposeString('role', { description: 'The role the invitee gets on accepting: admin or agent.' }),
    user_available: t.exposeBoolean('user_available'),
    firstname: t.exposeString('firstname', { description: 'As the inviter typed it.' }),
    lastname: t.exposeString('lastname', { description: 'As the inviter typed it.' }),
    createdBy: t.exposeString('createdBy'),
  }),
});

const InviteResult = builder.objectRef<InviteOutcome>('InviteResult').implement({
  description:
    'Every invitation is pending until the invitee accepts it, whether or not the e-mail has an account: ' +
    '`pending` is always true and `project_user` always null.',
  fields: (t) => ({
    success: t.exposeBoolean('success', { nullable: false }),
    pending: t.exposeBoolean('pending', { nullable: false }),
    message: t.exposeString('message'),
    project_user: t.field({ type: Teammate, resolve: (r) => r.project_user }),
    invitation: t.field({ type: PendingInvitation, resolve: (r) => r.invitation }),
  }),
});

builder.queryFields((t) => {
  const listArgs = {
    sortField: t.arg.string({ description: '`createdAt` (default), `updatedAt` or `email`.' }),
    direction: t.arg.int({ description: '1 ascending, -1 descending (default).' }),
    page: t.arg.int({ description: '0 is the first page (default).' }),
    limit: t.arg.int({ description: 'Page size, 40 by default, at most 100.' }),
  };
  return {
    invitations: t.field({
      type: [PendingInvitation],
      nullable: false,
      description: 'The project\'s pending invitations.',
      args: { project_id: t.arg.string({ required: true }), ...listArgs },
      authScopes: minRole('admin'),
      resolve: (_root, { project_id, ...query }, ctx) => ctx.services.teammates.invitations.listForProject(project_id, definedArgs(query)),
    }),
    myInvitations: t.field({
      type: [PendingInvitation],
      nullable: false,
      description: 'The pending invitations addressed to the caller\'s e-mail.',
      args: listArgs,
      authScopes: { authenticated: true },
      resolve: async (_root, query, ctx) => ctx.services.teammates.invitations.listFor((await ctx.principal())!, definedArgs(query)),
    }),
  };
});

builder.mutationFields((t) => ({
  inviteTeammate: t.field({
    type: InviteResult,
    nullable: false,
    description: 'Invites an e-mail; its holder joins with `role` and `user_available` on accepting (acceptInvitation).',
    args: {
      project_id: t.arg.string({ required: true }),
      email: t.arg.string(),
      role: t.arg.string(),
      firstname: t.arg.string(),
      lastname: t.arg.string(),
      user_available: t.arg.boolean(),
    },
    authScopes: minRole('admin'),
    resolve: async (_root, { project_id, ...input }, ctx) =>
      ctx.services.teammates.invitations.invite(project_id, (await ctx.teammate(project_id))!, input),
  }),
  revokeInvitation: t.field({
    type: PendingInvitation,
    nullable: false,
    description: 'Withdraws a pending invitation of the project.',
    args: { project_id: t.arg.string({ required: true }), invitation_id: t.arg.string({ required: true }) },
    authScopes: minRole('admin'),
    resolve: (_root, args, ctx) => ctx.services.teammates.invitations.revoke(args.project_id, args.invitation_id),
  }),
  acceptInvitation: t.field({
    type: Teammate,
    nullable: false,
    description: 'The invitee joins the project; answers their teammate record.',
    args: { invitation_id: t.arg.string({ required: true }) },
    authScopes: { authenticated: true },
    resolve: async (_root, args, ctx) => ctx.services.teammates.invitations.accept((await ctx.principal())!, args.invitation_id),
  }),
  signupWithInvitation: t.field({
    type: AuthResult,
    nullable: false,
    description:
      'Signs up through an e-mailed invitation link: the account gets the invitation\'s e-mail (verified) and joins the ' +
      'project. 409 when the e-mail has an account: sign in and accept the invitation instead.',
    args: {
      invitation_id: t.arg.string({ required: true }),
      token: t.arg.string({ description: 'The `token` of the accept link.' }),
      password: t.arg.string(),
      firstname: t.arg.string(),
      lastname: t.arg.string(),
    },
    resolve: (_root, { invitation_id, ...input }, ctx) =>
      ctx.services.teammates.invitations.signUp(invitation_id, definedArgs(input), ctx.services.accounts),
  }),
  declineInvitation: t.field({
    type: PendingInvitation,
    nullable: false,
    description: 'The invitee turns the invitation down; answers it, now deleted.',
    args: { invitation_id: t.arg.string({ required: true }) },
    authScopes: { authenticated: true },
    resolve: async (_root, args, ctx) => ctx.services.teammates.invitations.decline((await ctx.principal())!, args.invitation_id),
  }),
}));

export const routes: RestRoutes = {
  'Mutation.inviteTeammate': { method: 'POST', path: '/:project_id/project_users/invite' },
  'Query.invitations': { method: 'GET', path: '/:project_id/invitations' },
  'Mutation.revokeInvitation': { method: 'DELETE', path: '/:project_id/invitations/:invitation_id' },
  'Query.myInvitations': { method: 'GET', path: '/invitations' },
  'Mutation.acceptInvitation': { method: 'POST', path: '/invitations/:invitation_id/accept' },
  'Mutation.declineInvitation': { method: 'POST', path: '/invitations/:invitation_id/decline' },
  'Mutation.signupWithInvitation': { method: 'POST', path: '/invitations/:invitation_id/signup', bodyOnly: ['token', 'password'] },
};
