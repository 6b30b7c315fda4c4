import type { Context } from '../../context.js';
import { forbidden } from '../../errors.js';
import type { TeammateRecord } from '../teammates/service.js';
import { fullName } from './request-rows.js';

// Who acts on a request: a teammate (any role, end users included) or a bot that takes part in it.
// Field auth (minRole with botsInRequest) has already checked the bot's participation.

export interface Actor {
  /** User id, or `bot_<id>` for a bot. */
  userId: string;
  fullname: string;
  /** Null for a bot. */
  member: TeammateRecord | null;
}

export async function actorOf(ctx: Context, projectId: string): Promise<Actor> {
  const principal = await ctx.principal();
  if (principal?.bot) return { userId: principal.userId, fullname: principal.user.firstname, member: null };
  const member = await ctx.teammate(projectId);
  if (!member) throw forbidden();
  return { userId: member.id_user, fullname: fullName(member), member };
}

/** The caller's membership, for fields no bot may use (field auth refuses bot tokens there). */
export async function memberOf(ctx: Context, projectId: string): Promise<TeammateRecord> {
  const member = await ctx.teammate(projectId);
  if (!member) throw forbidden();
  return member;
}
