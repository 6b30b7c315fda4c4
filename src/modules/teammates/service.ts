import { auditFields } from '../audit/record.js';
import { z } from 'zod';
import { AppError, badInput, forbidden, notFound, parseInput } from '../../errors.js';
import type { Db } from '../../infra/database.js';
import type { EventLog } from '../../infra/event-log.js';
import type { Principal } from '../auth/principal.js';
import { roleAtLeast } from './roles.js';
import { TtlCache } from '../../infra/ttl-cache.js';
import { InvitationService } from './invitations.js';
import type { TeammateRecord } from './record.js';
import { membershipChannel } from '../auth/channels.js';
import { readMembership } from './read.js';
import type { Project } from '../../generated/prisma/client.js';

export type { TeammateRecord } from './record.js';

const json = z.record(z.string(), z.unknown());

const updateInput = z.object({
  role: z.enum(['admin', 'agent', 'user'], { message: 'must be admin, agent or user' }).optional(),
  user_available: z.boolean().optional(),
  max_served_chat: z.number().int().min(0).max(10_000).nullable().optional(),
  attributes: json.optional(),
  settings: json.optional(),
  /** Spec "Teammate status": a disabled teammate keeps account and history, but holds no access and is not routed to. */
  status: z.enum(['active', 'disabled'], { message: 'must be active or disabled' }).optional(),
});

const withUser = { user: true } as const;


export class TeammateService {
  /** Memberships by project and user: every authorised request needs one. */
  private memberships: TtlCache<string, TeammateRecord | null>;
  /** Invitations: teammates join by accepting one. */
  readonly invitations: InvitationService;

  constructor(
    private db: Db,
    private events: EventLog,
    /** Signs invitations' accept links. */
    invitationKey: string,
    cacheMs: number,
    /** The projects' state (src/modules/projects): a disabled or deleted project's memberships answer 403/404. */
    private projects: { assertOpen(projectId: string, ownerCall?: boolean): Promise<unknown>; know(projectId: string, project: Project | null): void },
  ) {
    this.memberships = new TtlCache(cacheMs);
    this.invitations = new InvitationService(db, events, (projectId, userId) => this.membershipChanged(projectId, userId), invitationKey);
    events.bus.subscribe(membershipChannel, (m) => this.memberships.delete(`${m.projectId}:${m.userId}`));
  }

  /** The projects' state (src/modules/projects): a member of a disabled or deleted project is refused. */

  /**
   * The caller's active membership in a project (removed or disabled teammates have none). A member
   * of a deleted project gets 404 and of a disabled one 403 (projects.assertOpen), unless
   * `ownerCall` and they are its owner (reading it, enabling it again).
   */
  async membership(projectId: string, principal: Principal, { ownerCall = false } = {}): Promise<TeammateRecord | null> {
    const active = await this.activeMembership(projectId, principal);
    if (active) await this.projects.assertOpen(projectId, ownerCall && active.role === 'owner');
    return active;
  }

  private async activeMembership(projectId: string, principal: Principal): Promise<TeammateRecord | null> {
    // An API key is a member of its role in its own project only (src/modules/api-keys).
    if (principal.apiKey) return principal.apiKey.projectId === projectId ? principal.apiKey.teammate : null;
    const key = `${projectId}:${principal.userId}`;
    const cached = this.memberships.get(key);
    if (cached !== undefined) return cached;
    const { teammate, project } = await readMembership(this.db, projectId, principal.userId);
    // Read with it: the project the role check reads next.
    this.projects.know(projectId, project);
    const active = teammate && !teammate.trashed && teammate.status === 'active' ? teammate : null;
    this.memberships.set(key, active);
    return active;
  }

  /** Drops a cached membership here at once and on the other nodes through the bus. */
  async membershipChanged(projectId: string, userId: string) {
    this.memberships.delete(`${projectId}:${userId}`);
    await this.events.bus.publish(membershipChannel, { projectId, userId });
  }

  list(projectId: string) {
    return this.db.projectUser.findMany({
      where: { id_project: projectId, trashed: false },
      include: withUser,
      orderBy: { createdAt: 'asc' },
    });
  }

  async get(projectId: string, id: string) {
    const teammate = await this.db.projectUser.findFirst({
      where: { id, id_project: projectId, trashed: false },
      include: withUser,
    });
    if (!teammate) throw notFound('teammate');
    return teammate;
  }

  async getByUser(projectId: string, userId: string) {
    const teammate = await this.db.projectUser.findFirst({
      where: { id_user: userId, id_project: projectId, trashed: false },
      include: withUser,
    });
    if (!teammate) throw notFound('teammate');
    return teammate;
  }

  /** A teammate updates their own membership; raising one's own role is not allowed. */
  async updateSelf(projectId: string, actor: TeammateRecord, input: unknown) {
    const data = parseInput(updateInput, input);
    if (data.role && data.role !== actor.role) {
      if (!roleAtLeast(actor.role, 'admin') || actor.role === 'owner') {
        throw forbidden('role: you cannot change your own role');
      }
      if (!roleAtLeast(actor.role, data.role)) throw forbidden('role: you cannot raise your own role');
    }
    return this.save(projectId, actor.id, data);
  }

  /** An admin updates another teammate; only the owner may change an owner or an admin into something else. */
  async updateOther(projectId: string, actor: TeammateRecord, id: string, input: unknown) {
    const data = parseInput(updateInput, input);
    const target = await this.get(projectId, id);
    if (target.role === 'owner' && actor.role !== 'owner') throw forbidden('the project owner can only be changed by the owner');
    if (target.role === 'owner' && data.role && target.id === actor.id) {
      throw badInput('role', 'role: the owner cannot change their own role');
    }
    if (data.status === 'disabled' && target.role === 'owner') throw new AppError('CONFLICT', 'status: the project owner cannot be disabled');
    if (data.status === 'disabled' && target.id === actor.id) throw badInput('status', 'status: use another admin to disable yourself');
    return this.save(projectId, target.id, data);
  }

  private async save(projectId: string, id: string, data: z.infer<typeof updateInput>) {
    const saved = await this.events.transaction(async (tx, emit) => {
      const before = await tx.projectUser.findUnique({ where: { id } });
      const saved = await tx.projectUser.update({
        where: { id },
        data: {
          role: data.role,
          user_available: data.user_available,
          max_served_chat: data.max_served_chat,
          attributes: data.attributes as object | undefined,
          settings: data.settings as object | undefined,
          status: data.status,
        },
        include: withUser,
      });
      const fields = Object.keys(data);
      await emit({ projectId, name: 'project_user.update', subject: id, payload: { fields }, audit: { before: before && auditFields(before, fields), after: auditFields(saved, fields) } });
      return saved;
    });
    await this.membershipChanged(projectId, saved.id_user);
    return saved;
  }

  /** Removes a teammate: the record stays, trashed, and access ends with the next request. */
  async remove(projectId: string, actor: TeammateRecord, id: string) {
    const target = await this.get(projectId, id);
    if (target.role === 'owner') throw new AppError('CONFLICT', 'the project owner cannot be removed');
    if (target.id === actor.id) throw badInput('project_user_id', 'project_user_id: use another admin to remove yourself');
    const removed = await this.events.transaction(async (tx, emit) => {
      const saved = await tx.projectUser.update({
        where: { id },
        data: { trashed: true, user_available: false },
        include: withUser,
      });
      await emit({ projectId, name: 'project_user.delete', subject: id });
      return saved;
    });
    await this.membershipChanged(projectId, removed.id_user);
    return removed;
  }
}
