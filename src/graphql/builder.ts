import SchemaBuilder from '@pothos/core';
import ScopeAuthPlugin from '@pothos/plugin-scope-auth';
import type { Context } from '../context.js';
import { forbidden, unauthenticated } from '../errors.js';
import type { Role } from '../modules/teammates/roles.js';

// Plugins and scopes only; types live in src/modules/*.

export interface ProjectRoleScope {
  projectId: string;
  min: Role;
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
  plugins: [ScopeAuthPlugin],
  scopeAuth: {
    // Scope loaders throw our own errors so callers see 401 (no identity) apart from 403 (no right).
    authScopes: async (ctx) => ({
      authenticated: async () => {
        if (!(await ctx.principal())) throw unauthenticated();
        return true;
      },
      projectRole: async ({ projectId, min }) => {
        if (!(await ctx.principal())) throw unauthenticated();
        if (!(await ctx.hasRole(projectId, min))) throw forbidden();
        return true;
      },
    }),
    unauthorizedError: () => forbidden(),
  },
});

builder.queryType({});
builder.mutationType({});
builder.subscriptionType({});
