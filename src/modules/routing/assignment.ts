import { z } from 'zod';
import { badInput, conflict, forbidden, notFound, parseInput } from '../../errors.js';
import type { Request } from '../../generated/prisma/client.js';
import type { Tx } from '../../infra/database.js';
import type { Change, RequestService } from '../requests/service.js';
import { assertMove, RequestStatus } from '../requests/states.js';
import type { TeammateRecord } from '../teammates/service.js';
import type { Actor } from '../requests/actor.js';
import { roleAtLeast } from '../teammates/roles.js';
import type { RoutingService } from './service.js';

// Who serves a request after it exists: re-routing to a department, an agent taking a pooled
// request, participants added or removed by hand, and waiting requests offered again when
// someone becomes available.

const botParticipant = /^bot_(.+)$/;
const participant = z.string().trim().min(1, 'is required').max(200);

const routeInput = z.object({ departmentid: z.string().trim().min(1, 'is required'), nobot: z.boolean().default(false) });

export class AssignmentService {
  constructor(
    private routing: RoutingService,
    private requests: RequestService,
  ) {}

  /** Sends the request to a department: its bot (unless `nobot`) or its agents, as on creation. */
  /** Bots hand a conversation off this way (with `nobot`), hence an actor rather than a member. */
  route(projectId: string, actor: Actor, requestId: string, input: unknown) {
    const data = parseInput(routeInput, input);
    return this.requests.change(projectId, requestId, actor.member, async (tx, current) => {
      this.requests.stillOpen(current);
      const decision = await this.routing.decide(tx, projectId, {
        departmentId: data.departmentid,
        nobot: data.nobot,
        requesterUserId: await this.requests.requesterUserId(tx, current),
      });
      assertMove(current.status, decision.status);
      const change = this.requests.rerouting(current, decision);
      return { ...change, data: { ...change.data, preflight: false } };
    });
  }

  /** An agent picks up a request nobody serves yet (pooled routing), within their capacity. */
  take(projectId: string, member: TeammateRecord, requestId: string) {
    return this.requests.change(projectId, requestId, member, async (tx, current) => {
      this.requests.stillOpen(current);
      if (current.participatingAgents.includes(member.id_user)) throw conflict('you already serve this request');
      if (current.participatingAgents.length) throw conflict('another agent already serves this request');
      await this.admitAgent(tx, projectId, member.id_user);
      return this.joining(current, [member.id_user]);
    });
  }

  addParticipant(projectId: string, member: TeammateRecord, requestId: string, input: unknown) {
    const id = parseInput(participant, input ?? undefined);
    return this.requests.change(projectId, requestId, member, async (tx, current) => {
      this.requests.stillOpen(current);
      if (current.participants.includes(id)) throw conflict(`member: ${id} already takes part in this request`, 'member');
      if (!botParticipant.test(id)) await this.admitAgent(tx, projectId, id);
      return this.joining(current, [id]);
    });
  }

  removeParticipant(projectId: string, member: TeammateRecord, requestId: string, input: unknown) {
    const id = parseInput(participant, input ?? undefined);
    return this.requests.change(projectId, requestId, member, async (_tx, current) => {
      if (!current.participants.includes(id)) throw notFound('participant');
      return this.withParticipants(current, current.participants.filter((p) => p !== id));
    });
  }

  /** Replaces the participants: new agents must have capacity, removed ones get theirs back. */
  setParticipants(projectId: string, member: TeammateRecord, requestId: string, input: unknown) {
    const ids = [...new Set(parseInput(z.array(participant).max(100), input ?? undefined))];
    return this.requests.change(projectId, requestId, member, async (tx, current) => {
      this.requests.stillOpen(current);
      for (const id of ids.filter((p) => !current.participants.includes(p) && !botParticipant.test(p)).sort()) {
        await this.admitAgent(tx, projectId, id);
      }
      return this.withParticipants(current, ids);
    });
  }

  /** Locks the agent's row and refuses anyone who is not an active agent with room for one more. */
  private async admitAgent(tx: Tx, projectId: string, userId: string) {
    const serving = await this.routing.lockForServing(tx, projectId, userId);
    if (!serving) throw badInput('member', `member: ${userId} is not a teammate of this project`);
    if (!roleAtLeast(serving.role, 'agent')) throw forbidden(`member: ${userId} is not an agent of this project`);
    if (serving.full) throw conflict(`member: ${userId} already serves max_served_chat requests`, 'member');
  }

  private joining(current: Request, ids: string[]): Change {
    const change = this.withParticipants(current, [...current.participants, ...ids]);
    const agent = ids.find((id) => !botParticipant.test(id));
    return { ...change, assignedTo: agent, data: { ...change.data, preflight: false } };
  }

  /** Participants and what follows from them: SERVED while anyone takes part, UNSERVED otherwise. */
  private withParticipants(current: Request, participants: string[]): Change {
    const bots = participants.map((p) => botParticipant.exec(p)?.[1]).filter((b): b is string => !!b);
    const agents = participants.filter((p) => !botParticipant.test(p));
    const status = participants.length ? RequestStatus.SERVED : current.status === RequestStatus.SERVED ? RequestStatus.UNSERVED : current.status;
    assertMove(current.status, status);
    const removedAgents = current.participatingAgents.filter((a) => !agents.includes(a));
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
      frees: removedAgents.length > 0,
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
