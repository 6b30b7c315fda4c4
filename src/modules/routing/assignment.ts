import { z } from 'zod';
import { badInput, conflict, forbidden, parseInput } from '../../errors.js';
import type { Request } from '../../generated/prisma/client.js';
import type { Tx } from '../../infra/database.js';
import type { Actor } from '../requests/actor.js';
import { botIdOf, botParticipants, humanParticipants } from '../requests/participants.js';
import type { Change, RequestService } from '../requests/service.js';
import { assertMove, RequestStatus } from '../requests/states.js';
import { roleAtLeast } from '../teammates/roles.js';
import type { TeammateRecord } from '../teammates/service.js';
import type { RoutingService } from './service.js';

// Who serves a request after it exists: re-routing to a department, an agent taking a pooled
// request, participants added or removed by hand, and waiting requests offered again when
// someone becomes available.

const participant = z.string().trim().min(1, 'is required').max(200);
const memberInput = z.object({ member: participant });
const participantsInput = z.object({ participants: z.array(participant).max(100) });

const routeInput = z.object({ departmentid: z.string().trim().min(1, 'is required'), nobot: z.boolean().default(false) });

export class AssignmentService {
  constructor(
    private routing: RoutingService,
    private requests: RequestService,
  ) {}

  /**
   * Sends the request to a department: its bot (unless `nobot`) or its agents, as on creation.
   * Bots hand a conversation off this way (with `nobot`), hence an actor rather than a member.
   */
  route(projectId: string, actor: Actor, requestId: string, input: unknown) {
    const data = parseInput(routeInput, input);
    return this.requests.change(
      projectId,
      requestId,
      actor.member,
      (tx, current) => this.rerouted(tx, projectId, current, data.departmentid, data.nobot),
      actor.userId,
    );
  }

  /**
   * Hands the request to the human agents of its department (the default one when it has none,
   * or its department was deleted): its bots leave, as with `nobot`.
   */
  toAgents(projectId: string, actor: Actor, requestId: string) {
    return this.requests.change(
      projectId,
      requestId,
      actor.member,
      async (tx, current) => {
        const department = await this.routing.departmentOrDefault(tx, projectId, current.departmentId);
        return this.rerouted(tx, projectId, current, department?.id, true);
      },
      actor.userId,
    );
  }

  private async rerouted(tx: Tx, projectId: string, current: Request, departmentId: string | undefined, nobot: boolean): Promise<Change> {
    this.requests.stillOpen(current);
    const decision = await this.routing.decide(tx, projectId, {
      departmentId,
      nobot,
      requesterUserId: await this.requests.requesterUserId(tx, current),
    });
    assertMove(current.status, decision.status);
    const change = this.requests.rerouting(current, decision);
    return { ...change, data: { ...change.data, preflight: false } };
  }

  /** An agent picks up a request nobody serves yet (pooled routing), within their capacity. */
  take(projectId: string, member: TeammateRecord, requestId: string) {
    return this.requests.change(projectId, requestId, member, async (tx, current) => {
      this.requests.stillOpen(current);
      if (current.participatingAgents.includes(member.id_user)) throw conflict('you already serve this request');
      if (current.participatingAgents.length) throw conflict('another agent already serves this request');
      await this.admitAgent(tx, projectId, member.id_user, 'member');
      return this.joining(current, [member.id_user]);
    });
  }

  /** `member`: a teammate user id (an active agent with room for one more) or `bot_<id>` of a live bot of the project. */
  addParticipant(projectId: string, member: TeammateRecord, requestId: string, input: unknown) {
    const { member: id } = parseInput(memberInput, { member: input ?? undefined });
    return this.requests.change(projectId, requestId, member, async (tx, current) => {
      this.requests.stillOpen(current);
      if (current.participants.includes(id)) throw conflict(`member: ${id} already takes part in this request`, 'member');
      await this.admit(tx, projectId, id, 'member');
      return this.joining(current, [id]);
    });
  }

  /**
   * Removing someone who does not take part changes nothing and answers the request (DELETE is
   * idempotent: a retried call, or the SDK's changeBot after the bot left, must not fail).
   */
  removeParticipant(projectId: string, member: TeammateRecord, requestId: string, input: unknown) {
    const { member: id } = parseInput(memberInput, { member: input ?? undefined });
    return this.requests.change(projectId, requestId, member, async (_tx, current) => {
      if (!current.participants.includes(id)) return null;
      return this.withParticipants(current, current.participants.filter((p) => p !== id));
    });
  }

  /**
   * Replaces the participants: new agents must have capacity, removed ones get theirs back. Those
   * who stay keep their place and newcomers follow in the order given, so the list stays in join order.
   */
  setParticipants(projectId: string, member: TeammateRecord, requestId: string, input: unknown) {
    const { participants } = parseInput(participantsInput, { participants: input ?? undefined });
    const wanted = [...new Set(participants)];
    return this.requests.change(projectId, requestId, member, async (tx, current) => {
      this.requests.stillOpen(current);
      const staying = current.participants.filter((p) => wanted.includes(p));
      const newcomers = wanted.filter((p) => !current.participants.includes(p));
      // Agents' rows are locked in id order, so concurrent replacements never deadlock.
      for (const id of [...newcomers].sort()) await this.admit(tx, projectId, id, `participants.${participants.indexOf(id)}`);
      return this.withParticipants(current, [...staying, ...newcomers]);
    });
  }

  /** Refuses a participant who is not of the project: a bot must be live, a teammate an agent with room. */
  private async admit(tx: Tx, projectId: string, participant: string, field: string) {
    const botId = botIdOf(participant);
    if (botId === null) return this.admitAgent(tx, projectId, participant, field);
    const bot = await tx.bot.findFirst({ where: { id: botId, id_project: projectId, trashed: false }, select: { id: true } });
    if (!bot) throw badInput(field, `${field}: ${participant} is not a bot of this project`);
  }

  /** Locks the agent's row and refuses anyone who is not an active agent with room for one more. */
  private async admitAgent(tx: Tx, projectId: string, userId: string, field: string) {
    const serving = await this.routing.lockForServing(tx, projectId, userId);
    if (!serving) throw badInput(field, `${field}: ${userId} is not a teammate of this project`);
    if (!roleAtLeast(serving.role, 'agent')) throw forbidden(`${field}: ${userId} is not an agent of this project`);
    if (serving.full) throw conflict(`${field}: ${userId} already serves max_served_chat requests`, field);
  }

  private joining(current: Request, ids: string[]): Change {
    const change = this.withParticipants(current, [...current.participants, ...ids]);
    const agent = ids.find((id) => botIdOf(id) === null);
    return { ...change, assignedTo: agent, data: { ...change.data, preflight: false } };
  }

  /** Participants and what follows from them: SERVED while anyone takes part, UNSERVED otherwise. */
  private withParticipants(current: Request, participants: string[]): Change {
    const bots = botParticipants(participants);
    const agents = humanParticipants(participants);
    const status = participants.length ? RequestStatus.SERVED : current.status === RequestStatus.SERVED ? RequestStatus.UNSERVED : current.status;
    assertMove(current.status, status);
    return {
      data: {
        participants,
        participatingAgents: agents,
        participatingBots: bots,
        hasBot: bots.length > 0,
        status,
        assigned_at: current.assigned_at ?? (participants.length ? new Date() : null),
      },
      fields: ['participants', 'participatingAgents', 'participatingBots', 'status'],
      loads: [...new Set([...current.participatingAgents, ...agents])],
    };
  }

  /**
   * Offers requests that found nobody to the agents available now, oldest first. Runs after a
   * teammate becomes available or frees capacity; requests that still find nobody keep waiting.
   */
  async offerWaiting(projectId: string) {
    let assigned = 0;
    for (const requestId of await this.routing.waiting(projectId, 1000)) {
      let routed = false;
      const after = await this.requests.change(projectId, requestId, null, async (tx, current) => {
        if (current.status !== RequestStatus.UNSERVED || current.assignment_reason !== 'no_agent_available') return null;
        const decision = await this.routing.decide(tx, projectId, {
          departmentId: current.departmentId,
          nobot: true,
          requesterUserId: await this.requests.requesterUserId(tx, current),
        });
        if (decision.reason === 'no_agent_available') return null;
        routed = true;
        return this.requests.rerouting(current, decision);
      }).catch((error) => {
        // Deleted meanwhile: nothing left to offer.
        if ((error as { code?: string }).code === 'NOT_FOUND') return null;
        throw error;
      });
      if (routed && after?.status === RequestStatus.SERVED) assigned++;
    }
    return { assigned };
  }
}
