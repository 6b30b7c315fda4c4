import { badInput } from '../../errors.js';
import { Prisma, type Department } from '../../generated/prisma/client.js';
import type { Db, Tx } from '../../infra/database.js';
import type { ProjectService } from '../projects/service.js';
import { RequestStatus } from '../requests/states.js';
import type { Assignment, Candidate, RequestRouting, RouteOptions, RoutingDecision } from '../requests/routing-port.js';
import { teamRoles } from '../teammates/roles.js';
import { orderGroupsByDeficit, parseShares } from './shares.js';
import { isBotSender } from '../auth/bot-identity.js';

// Decides who serves a request: a department's bot, the least-loaded available agent
// (`assigned` routing), or nobody yet (`pooled`, or no agent available). Every decision
// says why in `assignment_reason`.

/** What the widget says when its default department has no message of its own. */
export const widgetMessageDefaults = {
  online_msg: 'Hi! How can we help you?',
  offline_msg: 'We are away right now. Leave us a message and your e-mail and we will get back to you.',
};

/** What the chat widget needs before the visitor signs in (GET /:project_id/widgets). */
export interface WidgetSettings {
  id_project: string;
  name: string;
  widget: unknown;
  /** Inside operating hours (always, without them). */
  isopen: boolean;
  /** Agents who could take a conversation now: none outside operating hours. */
  available_agents: number;
  online_msg: string;
  offline_msg: string;
}

interface CandidateRow {
  id: string;
  id_user: string;
  load: number;
  firstname: string;
  lastname: string;
  last_assigned: Date | null;
}

/**
 * Who routing may give a request to, on the teammate row `pu`: an active, available agent (or
 * above) of the project under their max_served_chat. Routing ranks the rows it holds and, to claim
 * one, checks it again as locked.
 */
const canServe = (projectId: string) => Prisma.sql`pu."id_project" = ${projectId} AND pu."trashed" = false AND pu."status" = 'active'
  AND pu."user_available" = true AND pu."role" IN (${Prisma.join(teamRoles)})
  AND (pu."max_served_chat" IS NULL OR pu."number_assigned_requests" < pu."max_served_chat")`;

export class RoutingService implements RequestRouting {
  constructor(
    private db: Db,
    private projects: ProjectService,
  ) {}

  /** The department named, or the project's default one; an unknown id is a 400. */
  async department(tx: Tx | Db, projectId: string, departmentId?: string | null): Promise<Department | null> {
    if (departmentId) {
      const department = await tx.department.findFirst({ where: { id: departmentId, id_project: projectId } });
      if (!department) throw badInput('departmentid', 'departmentid: no such department in this project');
      return department;
    }
    return tx.department.findFirst({ where: { id_project: projectId, default: true }, orderBy: { createdAt: 'asc' } });
  }

  /** A request's department while it exists, else the project's default one (it may have been deleted). */
  async departmentOrDefault(tx: Tx | Db, projectId: string, departmentId: string | null): Promise<Department | null> {
    const department = departmentId
      ? await tx.department.findFirst({ where: { id: departmentId, id_project: projectId } })
      : null;
    return department ?? this.department(tx, projectId);
  }

  /**
   * Runs inside the caller's transaction. With `assigned` routing the chosen agent's row stays
   * locked (FOR UPDATE) until it commits, so concurrent decisions never push an agent past capacity.
   */
  async decide(tx: Tx, projectId: string, options: RouteOptions): Promise<RoutingDecision> {
    const department = await this.department(tx, projectId, options.departmentId);
    const routing = department?.routing ?? 'pooled';
    const project = await tx.project.findUniqueOrThrow({ where: { id: projectId } });
    const open = this.projects.isOpen(project);
    const useBot = !!department?.id_bot && !options.nobot;
    const assigns = open && !useBot && routing === 'assigned';
    const exclude = options.requesterUserId ?? null;
    // Who routing may choose from, in its order; with `assigned` routing, the first agent it could claim leads.
    const chooseFrom = async (members: string[] | null) => {
      const candidates = await this.candidates(tx, projectId, members, exclude);
      if (!assigns || !candidates.length) return candidates;
      const agent = await this.claim(tx, projectId, candidates);
      return agent ? [agent, ...candidates.filter((c) => c.teammateId !== agent.teammateId)] : [];
    };

    let groupId: string | null = null;
    let candidates: Candidate[] = [];
    const shares = department ? parseShares(department.groups) : [];
    if (shares.length) {
      const order = await orderGroupsByDeficit(tx, projectId, department!.id, shares);
      groupId = order[0];
      if (open) {
        for (const id of order) {
          candidates = await chooseFrom(await this.groupMembers(tx, projectId, id));
          if (candidates.length) {
            groupId = id;
            break;
          }
        }
      }
    } else {
      const members = department?.id_group ? await this.groupMembers(tx, projectId, department.id_group) : null;
      if (members) groupId = department!.id_group;
      if (open) candidates = await chooseFrom(members);
    }

    const base = { department, groupId, candidates, botId: null, agent: null };
    if (useBot) return { ...base, status: RequestStatus.SERVED, reason: 'bot', botId: department!.id_bot };
    if (!candidates.length) return { ...base, status: RequestStatus.UNSERVED, reason: 'no_agent_available' };
    if (routing === 'pooled') return { ...base, status: RequestStatus.UNSERVED, reason: 'pooled' };
    return { ...base, status: RequestStatus.SERVED, reason: 'least_loaded', agent: candidates[0] };
  }

  /**
   * Locks the row of the first candidate, in routing's order, who still has the load routing saw
   * (and room for one more), and answers them with their load now; null when nobody can be claimed.
   * Only the chosen agent's row is locked: a team's decisions no longer queue behind one another
   * on every agent's row (with 200 agents, locking them all made each new conversation wait for
   * the others' commits). Rows another decision holds are passed over at first (it is giving that
   * agent a request), then waited for in order when every candidate is held, so capacity is never
   * exceeded: after the wait the row is checked again as the other decision committed it.
   */
  private async claim(tx: Tx, projectId: string, candidates: Candidate[]): Promise<Candidate | null> {
    // One statement a pass, locking in routing's order and stopping at the first row it can take:
    // first not waiting, and only while the agent's load is what routing saw; then waiting.
    const ids = candidates.map((c) => c.teammateId);
    const loads = candidates.map((c) => c.load);
    for (const wait of [false, true]) {
      const [row] = await tx.$queryRaw<Array<{ id: string; load: number }>>`
        SELECT pu."id", pu."number_assigned_requests" AS load
        FROM "ProjectUser" pu
        JOIN unnest(${ids}::text[], ${loads}::int[]) WITH ORDINALITY AS seen("id", load, n) ON seen."id" = pu."id"
        WHERE ${canServe(projectId)}
          ${wait ? Prisma.empty : Prisma.sql`AND pu."number_assigned_requests" <= seen.load`}
        ORDER BY seen.n
        LIMIT 1
        FOR UPDATE OF pu ${wait ? Prisma.empty : Prisma.sql`SKIP LOCKED`}`;
      if (row) return { ...candidates.find((c) => c.teammateId === row.id)!, load: Number(row.load) };
    }
    return null;
  }

  /** Members (user ids) of a live group; null when the group is gone, which routes to everyone. */
  private async groupMembers(tx: Tx, projectId: string, groupId: string): Promise<string[] | null> {
    const group = await tx.group.findFirst({ where: { id: groupId, id_project: projectId, trashed: false } });
    return group ? group.members : null;
  }

  /**
   * The widget's view of the team: open or not, how many agents could answer now, and what to
   * say either way (the default department's messages, else the defaults). The widget shows the
   * away state (offline message, a form for the visitor's e-mail) when closed or nobody is available.
   */
  async widgetSettings(projectId: string): Promise<WidgetSettings> {
    // A disabled project answers 403, as every call to it does.
    const project = await this.projects.assertOpen(projectId);
    const [available, department] = await Promise.all([this.availableAgents(project.id, false), this.department(this.db, project.id)]);
    return {
      id_project: project.id,
      name: project.name,
      widget: project.widget,
      isopen: this.projects.isOpen(project),
      available_agents: available.length,
      online_msg: department?.online_msg || widgetMessageDefaults.online_msg,
      offline_msg: department?.offline_msg || widgetMessageDefaults.offline_msg,
    };
  }

  /**
   * Who could take a conversation now (`users/availables`): the agents routing chooses from, by
   * the same rule, least loaded first; nobody outside operating hours unless `raw`.
   */
  async availableAgents(projectId: string, raw: boolean) {
    const project = await this.projects.get(projectId);
    if (!raw && !this.projects.isOpen(project)) return [];
    const agents = await this.candidates(this.db, projectId, null, null);
    return agents.map((a) => ({ id: a.userId, firstname: a.firstname, lastname: a.lastname, project_user_id: a.teammateId }));
  }

  /**
   * Active, available agents (or above) under their max_served_chat, least loaded first and,
   * among equals, the one whose last assignment is oldest (round robin).
   */
  private async candidates(tx: Tx | Db, projectId: string, members: string[] | null, exclude: string | null): Promise<Candidate[]> {
    if (members && !members.length) return [];
    const memberFilter = members ? Prisma.sql`AND pu."id_user" IN (${Prisma.join(members)})` : Prisma.empty;
    const excludeFilter = exclude ? Prisma.sql`AND pu."id_user" <> ${exclude}` : Prisma.empty;
    const rows = await tx.$queryRaw<CandidateRow[]>`
      SELECT pu."id", pu."id_user", pu."number_assigned_requests" AS load, u."firstname", u."lastname",
             COALESCE(last."assigned_at", last."createdAt") AS last_assigned
      FROM "ProjectUser" pu
      JOIN "User" u ON u."id" = pu."id_user"
      LEFT JOIN "Request" last ON last."id" = pu."last_request_id"
      WHERE ${canServe(projectId)} ${memberFilter} ${excludeFilter}`;
    return rows
      .sort(
        (a, b) =>
          a.load - b.load ||
          (a.last_assigned?.getTime() ?? 0) - (b.last_assigned?.getTime() ?? 0) ||
          (a.id < b.id ? -1 : 1),
      )
      .map((r) => ({ teammateId: r.id, userId: r.id_user, firstname: r.firstname, lastname: r.lastname, load: Number(r.load) }));
  }

  /**
   * Locks one agent's row and answers whether they may take another request now
   * (used by `take` and by adding a participant).
   */
  async lockForServing(tx: Tx, projectId: string, userId: string) {
    const [row] = await tx.$queryRaw<Array<{ id: string; role: string; load: number; max: number | null }>>`
      SELECT "id", "role", "number_assigned_requests" AS load, "max_served_chat" AS max
      FROM "ProjectUser"
      WHERE "id_project" = ${projectId} AND "id_user" = ${userId} AND "trashed" = false AND "status" = 'active'
      FOR UPDATE`;
    if (!row) return null;
    return { teammateId: row.id, role: row.role, full: row.max != null && Number(row.load) >= row.max };
  }

  /**
   * Recounts the open requests each agent takes part in and, for the agent just given `assigned`,
   * remembers it as their last (the round-robin tie-break): one statement. Callers hold (or take
   * here) the teammate row locks, so the count each writer sees includes every committed assignment.
   */
  async syncLoads(tx: Tx, projectId: string, userIds: string[], assigned?: Assignment) {
    const ids = [...new Set([...userIds, ...(assigned ? [assigned.userId] : [])])].filter((id) => !isBotSender(id));
    if (!ids.length) return;
    const last = assigned
      ? Prisma.sql`, "last_request_id" = CASE WHEN pu."id_user" = ${assigned.userId} THEN ${assigned.requestId} ELSE pu."last_request_id" END`
      : Prisma.empty;
    // `@>` and the closed status written as a constant: the partial GIN index of open requests'
    // agents answers it (migration 20261129090000); `= ANY` read every request of the project.
    await tx.$executeRaw`
      UPDATE "ProjectUser" pu SET "number_assigned_requests" = (
        SELECT count(*) FROM "Request" r
        WHERE r."id_project" = pu."id_project" AND r."status" <> ${Prisma.raw(String(RequestStatus.CLOSED))}
          AND r."participatingAgents" @> ARRAY[pu."id_user"]::text[]) ${last}
      WHERE pu."id_project" = ${projectId} AND pu."id_user" IN (${Prisma.join(ids)})`;
  }

  /** Requests still waiting because nobody could take them, oldest first. */
  async waiting(projectId: string, limit: number): Promise<string[]> {
    const rows = await this.db.request.findMany({
      where: { id_project: projectId, status: RequestStatus.UNSERVED, assignment_reason: 'no_agent_available' },
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
      select: { request_id: true },
      take: limit,
    });
    return rows.map((r) => r.request_id);
  }
}
