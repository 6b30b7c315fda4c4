import { setDeviceCookie } from './device-cookie.js';
import { builder } from '../../graphql/builder.js';
import { recordFields } from '../../graphql/record-fields.js';
import type { RestRoutes } from '../../rest/route-config.js';
import type { UserRecord } from './principal.js';

export const User = builder.objectRef<UserRecord>('User').implement({
  description: 'An account. Passwords are never exposed.',
  fields: (t) => ({
    ...recordFields(t),
    email: t.exposeString('email'),
    firstname: t.exposeString('firstname'),
    lastname: t.exposeString('lastname'),
    fullName: t.string({ resolve: (u) => [u.firstname, u.lastname].filter(Boolean).join(' ') }),
    emailverified: t.exposeBoolean('emailverified'),
    anonymous: t.exposeBoolean('anonymous'),
    externalId: t.exposeString('externalId', {
      description: 'For a user a project\'s own site signed in (custom token): the `_id` that site gave.',
    }),
  }),
});

export interface AuthResultShape {
  success: boolean;
  token?: string;
  user: UserRecord;
}

export const AuthResult = builder.objectRef<AuthResultShape>('AuthResult').implement({
  fields: (t) => ({
    success: t.exposeBoolean('success', { nullable: false }),
    token: t.exposeString('token', { description: 'Prefixed with `JWT `; send it back as the Authorization header.' }),
    user: t.field({ type: User, nullable: false, resolve: (r) => r.user }),
  }),
});

builder.mutationFields((t) => ({
  signup: t.field({
    type: AuthResult,
    nullable: false,
    description:
      'Creates an account (409 for a registered e-mail, answered in the same time as a new one). Invitations to the ' +
      'e-mail stay pending until the account accepts them (acceptInvitation).',
    args: {
      email: t.arg.string(),
      password: t.arg.string(),
      firstname: t.arg.string(),
      lastname: t.arg.string(),
    },
    resolve: async (_root, args, ctx) => ({ success: true, user: await ctx.services.accounts.signup(args) }),
  }),
  signin: t.field({
    type: AuthResult,
    nullable: false,
    args: { email: t.arg.string(), password: t.arg.string() },
    resolve: async (_root, args, ctx) => {
      const result = await ctx.services.sessions.signin(args, ctx.clientIp, ctx.request.headers.get('cookie'));
      // The browser is trusted for this account from now on (see device-cookie.ts).
      setDeviceCookie(ctx.request, result.deviceCookie, ctx.services.infra.config.env === 'production');
      return result;
    },
  }),
  signinAnonymously: t.field({
    type: AuthResult,
    nullable: false,
    description: 'Creates an anonymous end user and a guest membership in the project.',
    args: { id_project: t.arg.string(), firstname: t.arg.string() },
    resolve: (_root, args, ctx) => ctx.services.sessions.signinAnonymously(args),
  }),
  signinWithCustomToken: t.field({
    type: AuthResult,
    nullable: false,
    description:
      'Signs in a user of a project\'s own site. The Authorization header carries `JWT <token>`: HS256, signed with the ' +
      'project\'s secret (generateJwtSecret), `aud` https://tiledesk.com/projects/<project_id>, `sub` userexternal, ' +
      'payload {_id, firstname, lastname, email}. Finds or creates that user (per project) with a `user` teammate.',
    resolve: (_root, _args, ctx) => ctx.services.sessions.signinWithCustomToken(ctx.request.headers.get('authorization'), ctx.clientIp),
  }),
}));

const AuthAck = builder.objectRef<{ success: boolean }>('AuthAck').implement({
  fields: (t) => ({ success: t.exposeBoolean('success', { nullable: false }) }),
});

// Account flows by e-mail: password change and reset, e-mail verification.
builder.mutationFields((t) => ({
  changePassword: t.field({
    type: AuthResult,
    nullable: false,
    description: 'Changes the caller\'s password given the current one. Every earlier token stops working (on every node); the answer carries a new one.',
    args: { oldpassword: t.arg.string(), newpassword: t.arg.string() },
    authScopes: { authenticated: true },
    resolve: async (_root, args, ctx) => ctx.services.accounts.changePassword((await ctx.principal())!, args, ctx.clientIp),
  }),
  requestPasswordReset: t.field({
    type: AuthAck,
    nullable: false,
    description: 'E-mails a single-use reset link if the e-mail has an account; answers the same, in the same time, either way.',
    args: { email: t.arg.string() },
    resolve: (_root, args, ctx) => ctx.services.accounts.requestPasswordReset(args),
  }),
  resetPassword: t.field({
    type: AuthResult,
    nullable: false,
    description: 'Sets a new password with the secret of a reset link (once, before it expires); signs out every other session.',
    args: { token: t.arg.string(), password: t.arg.string() },
    resolve: (_root, args, ctx) => ctx.services.accounts.resetPassword(args),
  }),
  verifyEmail: t.field({
    type: AuthResult,
    nullable: false,
    description: 'Confirms the account\'s e-mail with the token of the link sent at sign-up: `emailverified` becomes true.',
    args: { token: t.arg.string() },
    resolve: (_root, args, ctx) => ctx.services.accounts.verifyEmail(args),
  }),
  signOut: t.field({
    type: AuthAck,
    nullable: false,
    description:
      'Ends the calling token (`JWT <token>`): within a second every node refuses it over REST, GraphQL and live sockets (its subscriptions end with 401). Other sessions go on.',
    authScopes: { authenticated: true },
    resolve: async (_root, _args, ctx) => ctx.services.sessions.signOut((await ctx.principal())!),
  }),
  signOutEverywhere: t.field({
    type: AuthAck,
    nullable: false,
    description: 'Ends every token of the caller\'s account, on every node, the calling one included (as a password change does).',
    authScopes: { authenticated: true },
    resolve: async (_root, _args, ctx) => ctx.services.sessions.signOutEverywhere((await ctx.principal())!),
  }),
  resendVerification: t.field({
    type: AuthResult,
    nullable: false,
    description: 'E-mails the caller a new verification link (nothing when the e-mail is verified already).',
    authScopes: { authenticated: true },
    resolve: async (_root, _args, ctx) => ctx.services.accounts.resendVerification((await ctx.principal())!),
  }),
}));

builder.mutationField('updateMe', (t) =>
  t.field({
    type: User,
    nullable: false,
    description:
      'The caller changes their own name (`firstname`, `lastname`; at least one). Every project they belong to gets a `project_user.update` event for their membership.',
    args: { firstname: t.arg.string(), lastname: t.arg.string() },
    authScopes: { authenticated: true },
    resolve: async (_root, args, ctx) =>
      ctx.services.accounts.updateProfile((await ctx.principal())!, { firstname: args.firstname ?? undefined, lastname: args.lastname ?? undefined }),
  }),
);

builder.queryField('me', (t) =>
  t.field({
    type: User,
    authScopes: { authenticated: true },
    description: 'The authenticated caller.',
    resolve: async (_root, _args, ctx) => (await ctx.principal())!.user,
  }),
);

export const routes: RestRoutes = {
  // Credentials come in the body only: URLs end up in logs, histories and caches.
  'Mutation.signup': { method: 'POST', path: '/auth/signup', bodyOnly: ['email', 'password'] },
  'Mutation.signin': { method: 'POST', path: '/auth/signin', bodyOnly: ['email', 'password'] },
  'Mutation.signinAnonymously': { method: 'POST', path: '/auth/signinAnonymously' },
  'Mutation.signinWithCustomToken': { method: 'POST', path: '/auth/signinWithCustomToken' },
  'Query.me': { method: 'GET', path: '/auth/me' },
  'Mutation.updateMe': { method: 'PATCH', path: '/auth/me' },
  'Mutation.changePassword': { method: 'POST', path: '/auth/changePassword', bodyOnly: ['oldpassword', 'newpassword'] },
  'Mutation.requestPasswordReset': { method: 'POST', path: '/auth/requestPasswordReset', bodyOnly: ['email'] },
  'Mutation.resetPassword': { method: 'POST', path: '/auth/resetPassword', bodyOnly: ['token', 'password'] },
  'Mutation.verifyEmail': { method: 'POST', path: '/auth/verifyEmail', bodyOnly: ['token'] },
  'Mutation.resendVerification': { method: 'POST', path: '/auth/resendVerification' },
  'Mutation.signOut': { method: 'POST', path: '/auth/signout' },
  'Mutation.signOutEverywhere': { method: 'POST', path: '/auth/signout/all' },
};
