import SchemaBuilder from '@pothos/core';
import ScopeAuthPlugin from '@pothos/plugin-scope-auth';
import PartialResultsPlugin from './partial-results.js';
import type { Context } from '../context.js';
import { forbidden, unauthenticated } from '../errors.js';
import { roleAtLeast, type Role } from '../modules/teammates/roles.js';

// Plugins and scopes only; types live in src/modules/*.

export interface ProjectRoleScope {
  projectId: string;
  min: Role;
  /** Set on the few fields a bot token may use: the request (`request_id`) the bot must take part in. */
  botRequestId?: string;
  /** The owner passes while the project is disabled (see minRole). */
  ownerWhileDisabled?: boolean;
}

const botRefusal = 'a bot token may only post messages, update attributes and hand off in requests the bot takes part in';

/** The `authenticated` scope: a signed-in caller. Bot principals are refused here, in one place. */
export async function authenticated(ctx: Context): Promise<true> {
  const principal = await ctx.principal();
  if (!principal) throw unauthenticated();
  if (principal.bot) throw forbidden(botRefusal);
  return true;
}

/**
 * The `projectRole` scope (what `minRole` asks for): at least `min` in the project, or a bot taking
 * part in the request a field names. GraphQL fields and hand-written REST routes both check it here.
 */
export async function projectRole(ctx: Context, { projectId, min, botRequestId, ownerWhileDisabled }: ProjectRoleScope): Promise<true> {
  const principal = await ctx.principal();
  if (!principal) throw unauthenticated();
  if (principal.bot) {
    if (botRequestId === undefined || !(await ctx.services.bots.takesPart(principal.bot, projectId, botRequestId))) {
      throw forbidden(botRefusal);
    }
    await ctx.services.projects.assertOpen(projectId);
    return true;
  }
  const teammate = await ctx.teammate(projectId, { ownerCall: ownerWhileDisabled });
  if (!teammate || !roleAtLeast(teammate.role, min)) throw forbidden();
  return true;
}

export const builder = new SchemaBuilder<{
  Context: Context;
  Scalars: {
    JSON: { Input: unknown; Output: unknown };
    DateTime: { Input: Date; Output: Date | string };
  };
  AuthScopes: {
    authenticated: boolean;
    projectRole: ProjectRoleScope;
  };
}>({
  plugins: [ScopeAuthPlugin, PartialResultsPlugin],
  scopeAuth: {
    // Subscriptions are refused when they start, not at their first event (a caller without the
    // role would otherwise hold a live stream open). Scope results are cached per operation anyway.
    authorizeOnSubscribe: true,
    // Scope loaders throw our own errors so callers see 401 (no identity) apart from 403 (no right).
    authScopes: async (ctx) => ({
      authenticated: () => authenticated(ctx),
      projectRole: (scope) => projectRole(ctx, scope),
    }),
    unauthorizedError: () => forbidden(),
  },
});

builder.queryType({});
builder.mutationType({});
builder.subscriptionType({});
