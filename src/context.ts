import type { Principal } from './modules/auth/principal.js';
import type { TeammateRecord } from './modules/teammates/service.js';
import { roleAtLeast, type Role } from './modules/teammates/roles.js';
import { forbidden, unauthenticated } from './errors.js';
import { noteRequestActor, type RequestActor } from './infra/request-scope.js';

/**
 * The domain services, as `src/services.ts` builds them. That file fills this slot in (declaration
 * merging), so the context, which every schema file sees, imports no service module: services
 * never depend back on the GraphQL layer, not even by type.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface ContextServices {}

export interface Context {
  services: ContextServices;
  request: Request;
  clientIp: string;
  /** The client's own address (an IPv6 one whole, not its /64), for the geo lookup; null when unknown. */
  clientAddress: string | null;
  /** The authenticated caller, or null without credentials; invalid credentials throw 401. */
  principal(): Promise<Principal | null>;
  /**
   * The caller's active membership in a project, or null. A member of a deleted project gets 404
   * and of a disabled one 403 (projects.assertOpen); `ownerCall` lets its owner through (reading
   * it, enabling it again).
   */
  teammate(projectId: string, options?: { ownerCall?: boolean }): Promise<TeammateRecord | null>;
  hasRole(projectId: string, min: Role): Promise<boolean>;
  /** Throws 401 without an identity and 403 without the role; returns the caller's membership. */
  requireRole(projectId: string, min: Role): Promise<TeammateRecord>;
}

export function buildContext(services: ContextServices, request: Request, clientIp: string, clientAddress: string | null = null): Context {
  let principal: Promise<Principal | null> | undefined;
  const memberships = new Map<string, Promise<TeammateRecord | null>>();
  const ctx: Context = {
    services,
    request,
    clientIp,
    clientAddress,
    principal() {
      principal ??= services.auth.authenticate(request.headers.get('authorization'), clientIp).then((found) => {
        if (found) noteRequestActor(requestActorOf(found, clientAddress ?? clientIp));
        return found;
      });
      return principal;
    },
    teammate(projectId, options = {}) {
      const key = options.ownerCall ? `${projectId}\0owner` : projectId;
      let membership = memberships.get(key);
      if (!membership) {
        // A bot is no teammate: it holds no role anywhere.
        membership = ctx.principal().then((p) => (p && !p.bot ? services.teammates.membership(projectId, p, options) : null));
        memberships.set(key, membership);
      }
      return membership;
    },
    async hasRole(projectId, min) {
      const teammate = await ctx.teammate(projectId);
      return !!teammate && roleAtLeast(teammate.role, min);
    },
    async requireRole(projectId, min) {
      if (!(await ctx.principal())) throw unauthenticated();
      const teammate = await ctx.teammate(projectId);
      if (!teammate || !roleAtLeast(teammate.role, min)) throw forbidden();
      return teammate;
    },
  };
  return ctx;
}

/**
 * A value made once per operation and kept on its context. Not in a WeakMap keyed by the context:
 * V8's young-generation collector holds a WeakMap's values strongly, so a value that refers back
 * to its context (as per-operation loaders do) would keep every operation's objects alive until a
 * full collection, and each minor collection would copy them all.
 */
export function perContext<T>(create: (ctx: Context) => T): (ctx: Context) => T {
  const key = Symbol('per context');
  return (ctx) => {
    const holder = ctx as unknown as Record<symbol, T | undefined>;
    return (holder[key] ??= create(ctx));
  };
}

/** The caller as the audit log names it: an account (by e-mail), a project API key or a bot. */
function requestActorOf(principal: Principal, address: string | null): RequestActor {
  if (principal.apiKey) return { kind: 'api_key', id: principal.apiKey.id, name: principal.user.firstname ?? null, address };
  if (principal.bot) return { kind: 'bot', id: principal.bot.id, name: principal.user.firstname ?? null, address };
  return { kind: 'account', id: principal.userId, name: principal.user.email ?? null, address };
}
