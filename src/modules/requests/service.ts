import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { badInput, conflict, forbidden, notFound, parseInput } from '../../errors.js';
import type { Prisma, Request } from '../../generated/prisma/client.js';
import type { Db, Tx } from '../../infra/database.js';
import type { Emit, EventLog, LoggedEvent } from '../../infra/event-log.js';
import { EventRecordCache } from '../../realtime/record-cache.js';
import type { RequestRouting, RoutingDecision } from './routing-port.js';
import type { TeammateRecord } from '../teammates/service.js';
import type { Actor } from './actor.js';
import { canSee, scopeFor, readRefusal } from './access.js';
import { listRequests } from './list.js';
import { requestTimeline } from './timeline.js';
import { withChatbotParameters } from './chatbot-parameters.js';
import { locate } from '../../infra/geo.js';
import { assertMove, isOpen, RequestStatus } from './states.js';
import { botSender } from '../auth/bot-identity.js';
import { isUniqueViolation } from '../../infra/database-errors.js';
import {
  checkRequestId,
  findRequest,
  fullName,
  lockRequest,
  newRequestId,
  transactionWithRetry,
  viewerOf,
} from './request-rows.js';

const json = z.record(z.string(), z.unknown());
const channelNames = ['chat21', 'email', 'form', 'whatsapp', 'telegram', 'messenger'] as const;
const priorities = ['normal', 'low', 'hight', 'urgent'] as const;

const tag = z.union([
  z.string().trim().min(1, 'must not be empty').max(100).transform((name) => ({ tag: name })),
  z.object({ tag: z.string().trim().min(1, 'must not be empty').max(100), color: z.string().max(20).optional() }),
]);

/** Fields only the message (or call) that opens a request may set. */
export const openingFields = {
  departmentid: z.string().trim().min(1).optional(),
  sourcePage: z.string().max(2000).optional(),
  language: z.string().max(35).optional(),
  userAgent: z.string().max(1000).optional(),
  channel: z.object({ name: z.enum(channelNames, { message: `must be one of ${channelNames.join(', ')}` }) }).catchall(z.unknown()).optional(),
};

const createInput = z.object({
  ...openingFields,
  request_id: z.string().trim().optional(),
  first_text: z.string().max(10_000).default(''),
  preflight: z.boolean().default(false),
  attributes: json.optional(),
  priority: z.enum(priorities, { message: `must be one of ${priorities.join(', ')}` }).optional(),
});

/** The spec's "number from 0 to 5", fractions such as 4.5 included, kept as given. */
const rate = z.number({ message: 'must be a number from 0 to 5' }).min(0, 'must be 0 to 5').max(5, 'must be 0 to 5');

const updateInput = z.object({
  first_text: z.string().max(10_000).optional(),
  lead: z.string().trim().min(1).optional(),
  status: z
    .number()
    .int()
    .refine((s) => (Object.values(RequestStatus) as number[]).includes(s), `must be one of ${Object.values(RequestStatus).join(', ')}`)
    .optional(),
  tags: z.array(tag).max(100).optional(),
  rating: rate.optional(),
  rating_message: z.string().max(5000).optional(),
  language: z.string().max(35).optional(),
  sourcePage: z.string().max(2000).optional(),
  priority: z.enum(priorities, { message: `must be one of ${priorities.join(', ')}` }).optional(),
  attributes: json.optional(),
});

const ratingInput = z.object({ rate: rate.optional(), rating: rate.optional(), rate_message: z.string().max(5000).optional(), rating_message: z.string().max(5000).optional() });

export type OpeningInput = {
  first_text?: string;
  departmentid?: string;
  sourcePage?: string;
  language?: string;
  userAgent?: string;
  channel?: { name: string } & Record<string, unknown>;
  attributes?: Record<string, unknown>;
  preflight?: boolean;
  priority?: string;
};

export interface Change {
  data: Prisma.RequestUpdateInput;
  fields: string[];
  /** Agents whose open-request count this change affects. */
  loads?: string[];
  /** The agent routing just gave the request to (the round-robin tie-break remembers it). */
  assignedTo?: string;
  close?: boolean;
}

/**
 * The available agents a request's snapshot lists at most (routing's first choices);
 * `availableAgentsCount` counts them all. Every one of a 200-agent team's requests listed all 200
 * (26 KB each): a page of 50 open requests was 850 KB to read, render and send (issue 39).
 */
export const snapshotAgents = 10;

export class RequestService {
  constructor(
    private db: Db,
    private events: EventLog,
    private routing: RequestRouting,
  ) {}

  /**
   * Before a write: someone outside the scope is refused (403), end users included. Unlike a read,
   * a write cannot answer "not found" for a taken id (a message to an unknown id opens it).
   */
  async assertCanSee(db: Db | Tx, projectId: string, member: TeammateRecord, request: Request) {
    if (!canSee(await scopeFor(db, projectId, viewerOf(member)), request)) {
      throw forbidden('you cannot see this request');
    }
  }

  private records = new EventRecordCache<Request>((event) =>
    this.db.request.findFirst({ where: { id: event.subject, id_project: event.projectId } }),
  );

  /** The request a logged event is about (read once per node), or null when it is gone. */
  fromEvent(event: LoggedEvent) {
    return this.records.get(event);
  }

  /** One request as the member may read it (end users: their own, else 404). */
  async get(projectId: string, member: TeammateRecord, requestId: string) {
    const request = await findRequest(this.db, projectId, requestId);
    const scope = await scopeFor(this.db, projectId, viewerOf(member));
    if (!canSee(scope, request)) throw readRefusal(scope);
    return request;
  }

  /** The page of requests the member may see (end users: the ones they opened). */
  async list(projectId: string, member: TeammateRecord, query: unknown) {
    return listRequests(this.db, projectId, await scopeFor(this.db, projectId, viewerOf(member)), query, member.id_user);
  }

  /** POST /requests: an empty conversation (for import); `preflight` ones wait for a first message to be routed. */
  /** `clientAddress`: the caller's address, for the request's `location` (see `open`). */
  async create(projectId: string, member: TeammateRecord, input: unknown, clientAddress?: string | null) {
    const data = parseInput(createInput, input);
    const requestId = data.request_id || newRequestId();
    checkRequestId(requestId);
    try {
      return await transactionWithRetry(this.events, async (tx, emit) => {
        const existing = await tx.request.findUnique({ where: { id_project_request_id: { id_project: projectId, request_id: requestId } } });
        if (existing) throw conflict('request_id: a request with this id already exists', 'request_id');
        return this.open(tx, emit, projectId, member, requestId, data, clientAddress);
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict('request_id: a request with this id already exists', 'request_id');
      throw error;
    }
  }

  /**
   * Creates a request inside the caller's transaction: its ticket number, its lead, the routing
   * decision and the snapshot of that moment. A concurrent creation of the same request_id makes
   * the insert fail, and the caller's retry then finds the request. `location` comes from the
   * address of the client that opens it (`clientAddress`), null for a private one.
   */
  async open(tx: Tx, emit: Emit, projectId: string, member: TeammateRecord, requestId: string, input: OpeningInput, clientAddress?: string | null) {
    const decision = input.preflight
      ? null
      : await this.routing.decide(tx, projectId, { departmentId: input.departmentid, requesterUserId: member.id_user });
    const department = decision ? decision.department : await this.routing.department(tx, projectId, input.departmentid);
    const lead = await this.leadFor(tx, emit, projectId, member, input.attributes);
    const [{ ticketSeq }] = await tx.$queryRaw<Array<{ ticketSeq: number }>>`
      UPDATE "Project" SET "ticketSeq" = "ticketSeq" + 1 WHERE "id" = ${projectId} RETURNING "ticketSeq"`;
    const now = new Date();
    const channel = input.channel ?? { name: 'chat21' };
    const request = await tx.request.create({
      data: {
        id_project: projectId,
        request_id: requestId,
        ticket_id: ticketSeq,
        first_text: input.first_text ?? '',
        departmentId: department?.id ?? null,
        id_group: decision?.groupId ?? null,
        leadId: lead.id,
        requester_id: member.id,
        sourcePage: input.sourcePage,
        language: input.language,
        userAgent: input.userAgent,
        location: (locate(clientAddress) as object | null) ?? undefined,
        channel: channel as object,
        channelName: channel.name,
        priority: input.priority ?? 'normal',
        preflight: !!input.preflight,
        createdBy: member.id_user,
        createdAt: now,
        attributes: (input.attributes ?? {}) as object,
        snapshot: {
          department: department && { id: department.id, name: department.name, routing: department.routing, id_group: department.id_group, id_bot: department.id_bot },
          lead: { id: lead.id, lead_id: lead.lead_id, fullname: lead.fullname, email: lead.email },
          requester: { id: member.id, id_user: member.id_user, role: member.role, fullname: fullName(member), isAuthenticated: member.isAuthenticated },
          agents: (decision?.candidates ?? []).slice(0, snapshotAgents).map((c) => ({ id_user: c.userId, project_user_id: c.teammateId, firstname: c.firstname, lastname: c.lastname })),
          availableAgentsCount: decision?.candidates.length ?? 0,
        },
        ...(decision ? assignmentData(decision, now) : { status: RequestStatus.TEMPORARY }),
      },
    });
    if (decision?.agent) {
      await this.routing.syncLoads(tx, projectId, [], { userId: decision.agent.userId, requestId: request.id });
    }
    await emit({
      projectId,
      name: 'request.create',
      subject: request.id,
      payload: {
        request_id: requestId,
        department_id: request.departmentId,
        assignment_reason: request.assignment_reason,
        by: member.id_user,
        ...(request.participants.length ? { added: request.participants } : {}),
      },
    });
    return request;
  }

  /** The requester's lead (contact): found by their user id, created on their first request. */
  private async leadFor(tx: Tx, emit: Emit, projectId: string, member: TeammateRecord, attributes?: Record<string, unknown>) {
    const existing = await tx.lead.findUnique({ where: { id_project_lead_id: { id_project: projectId, lead_id: member.id_user } } });
    if (existing) return existing;
    const email = member.user.email ?? (typeof attributes?.userEmail === 'string' ? attributes.userEmail : null);
    // Two conversations of one visitor opened at once both find no lead: the second insert waits for
    // the first's commit and does nothing, and the lead read after it is the one the first wrote.
    const { count } = await tx.lead.createMany({
      data: [{ id_project: projectId, lead_id: member.id_user, fullname: fullName(member), email, createdBy: member.id_user }],
      skipDuplicates: true,
    });
    const lead = await tx.lead.findUniqueOrThrow({ where: { id_project_lead_id: { id_project: projectId, lead_id: member.id_user } } });
    if (count) await emit({ projectId, name: 'lead.create', subject: lead.id, payload: { lead_id: member.id_user } });
    return lead;
  }

  /**
   * Applies one change to a request under its row lock, keeps the agents' counts in step and
   * logs `request.update` (or `request.close`).
   */
  async change(
    projectId: string,
    requestId: string,
    member: TeammateRecord | null,
    work: (tx: Tx, current: Request) => Promise<Change | null>,
    /** Who makes the change, for the log: a user id, `bot_<id>`, or null for the system; the member by default. */
    by: string | null = member?.id_user ?? null,
  ): Promise<Request> {
    const updated = await transactionWithRetry(this.events, async (tx, emit) => {
      const current = await lockRequest(tx, projectId, requestId);
      if (!current) throw notFound('request');
      if (member) await this.assertCanSee(tx, projectId, member, current);
      const change = await work(tx, current);
      // Nothing to do after all (e.g. a waiting request that still has nobody to go to).
      if (!change) return current;
      const request = await tx.request.update({ where: { id: current.id }, data: change.data });
      const assigned = change.assignedTo ? { userId: change.assignedTo, requestId: request.id } : undefined;
      if (change.loads?.length || assigned) await this.routing.syncLoads(tx, projectId, change.loads ?? [], assigned);
      await emit({
        projectId,
        name: change.close ? 'request.close' : 'request.update',
        subject: request.id,
        payload: { request_id: request.request_id, fields: change.fields, status: request.status, ...changeDetails(current, request, change.fields, by) },
      });
      return request;
    });
    return updated;
  }

  /** A bot (no member) may only merge attributes, in a request it takes part in. */
  async update(projectId: string, actor: Actor, requestId: string, input: unknown) {
    const data = parseInput(updateInput, input);
    if (!actor.member && Object.keys(data).some((k) => k !== 'attributes')) {
      throw forbidden('a bot may only update the attributes of a request');
    }
    return this.change(projectId, requestId, actor.member, async (tx, current) => {
      if (data.lead) {
        const lead = await tx.lead.findFirst({ where: { id: data.lead, id_project: projectId } });
        if (!lead) throw badInput('lead', 'lead: no such lead in this project');
      }
      const closing = data.status === RequestStatus.CLOSED && current.status !== RequestStatus.CLOSED;
      if (data.status !== undefined) assertMove(current.status, data.status, true);
      const change: Change = {
        data: {
          first_text: data.first_text,
          leadId: data.lead,
          tags: data.tags as object[] | undefined,
          rating: data.rating,
          rating_message: data.rating_message,
          language: data.language,
          sourcePage: data.sourcePage,
          priority: data.priority,
          attributes: data.attributes ? (mergedAttributes(current.attributes, data.attributes, actor) as object) : undefined,
          status: closing ? undefined : data.status,
        },
        fields: Object.keys(data),
      };
      if (!closing) return change;
      const closed = await this.closing(tx, current, actor.userId);
      return { ...closed, data: { ...change.data, ...closed.data }, fields: change.fields };
    });
  }

  /** The effects of closing: status, who and when, the transcript, and the agents' freed capacity. */
  async closing(tx: Tx, current: Request, userId: string): Promise<Change> {
    assertMove(current.status, RequestStatus.CLOSED);
    const messages = await tx.message.findMany({
      where: { id_project: current.id_project, request_id: current.request_id, hidden: false },
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
      select: { createdAt: true, senderFullname: true, text: true },
    });
    const transcript = messages.map((m) => `[${m.createdAt.toISOString()}] ${m.senderFullname}: ${m.text}`).join('\n');
    return {
      data: { status: RequestStatus.CLOSED, closed_at: new Date(), closed_by: userId, transcript },
      fields: ['status', 'closed_at', 'closed_by', 'transcript'],
      loads: current.participatingAgents,
      close: true,
    };
  }

  close(projectId: string, member: TeammateRecord, requestId: string) {
    return this.change(projectId, requestId, member, async (tx, current) => {
      if (current.status === RequestStatus.CLOSED) throw conflict('status: the request is already closed', 'status');
      return this.closing(tx, current, member.id_user);
    });
  }

  /** Back to SERVED when someone still takes part, else routed again as a new request would be. */
  reopen(projectId: string, member: TeammateRecord, requestId: string) {
    return this.change(projectId, requestId, member, async (tx, current) => {
      if (current.status !== RequestStatus.CLOSED) throw conflict('status: only a closed request can be reopened', 'status');
      const reset = { closed_at: null, closed_by: null, transcript: null };
      if (current.participants.length) {
        return { data: { ...reset, status: RequestStatus.SERVED }, fields: ['status'], loads: current.participatingAgents };
      }
      const decision = await this.routing.decide(tx, projectId, {
        departmentId: current.departmentId,
        requesterUserId: await this.requesterUserId(tx, current),
      });
      const routed = this.rerouting(current, decision);
      return { ...routed, data: { ...reset, ...routed.data } };
    });
  }

  async requesterUserId(tx: Tx | Db, request: Request): Promise<string | null> {
    if (!request.requester_id) return null;
    const requester = await tx.projectUser.findUnique({ where: { id: request.requester_id }, select: { id_user: true } });
    return requester?.id_user ?? null;
  }

  /** A routing decision applied to an existing request: it replaces who serves it. */
  rerouting(current: Request, decision: RoutingDecision): Change {
    const data = assignmentData(decision, new Date());
    return {
      data: {
        ...data,
        departmentId: decision.department?.id ?? current.departmentId,
        id_group: decision.groupId,
        assigned_at: current.assigned_at ?? data.assigned_at,
      },
      fields: ['status', 'departmentId', 'participants', 'assignment_reason'],
      loads: [...current.participatingAgents, ...(decision.agent ? [decision.agent.userId] : [])],
      assignedTo: decision.agent?.userId,
    };
  }

  addNote(projectId: string, member: TeammateRecord, requestId: string, text: unknown) {
    const note = parseInput(z.object({ text: z.string().trim().min(1, 'is required').max(10_000) }), { text });
    return this.change(projectId, requestId, member, async (_tx, current) => {
      const now = new Date().toISOString();
      const notes = [...asArray(current.notes), { _id: randomUUID(), text: note.text, createdBy: member.id_user, createdAt: now, updatedAt: now }];
      return { data: { notes: notes as object[] }, fields: ['notes'] };
    });
  }

  removeNote(projectId: string, member: TeammateRecord, requestId: string, noteId: unknown) {
    const { note_id } = parseInput(z.object({ note_id: z.string().min(1) }), { note_id: noteId });
    return this.change(projectId, requestId, member, async (_tx, current) => {
      const notes = asArray(current.notes);
      const kept = notes.filter((n) => (n as { _id?: string })._id !== note_id);
      if (kept.length === notes.length) throw notFound('note');
      return { data: { notes: kept as object[] }, fields: ['notes'] };
    });
  }

  addTags(projectId: string, member: TeammateRecord, requestId: string, input: unknown) {
    const data = parseInput(
      z.object({ tag: tag.optional(), color: z.string().max(20).optional(), tags: z.array(tag).max(100).optional() }).refine((v) => v.tag || v.tags?.length, { message: 'is required', path: ['tag'] }),
      input,
    );
    const wanted = [...(data.tag ? [{ ...data.tag, ...(data.color ? { color: data.color } : {}) }] : []), ...(data.tags ?? [])];
    return this.change(projectId, requestId, member, async (_tx, current) => {
      const tags = asArray(current.tags) as Array<{ tag: string }>;
      const names = new Set(tags.map((t) => t.tag));
      const added = wanted.filter((t) => !names.has(t.tag) && names.add(t.tag));
      return { data: { tags: [...tags, ...added] as object[] }, fields: ['tags'] };
    });
  }

  removeTag(projectId: string, member: TeammateRecord, requestId: string, name: string) {
    return this.change(projectId, requestId, member, async (_tx, current) => {
      const tags = asArray(current.tags) as Array<{ tag: string }>;
      const kept = tags.filter((t) => t.tag !== name);
      if (kept.length === tags.length) throw notFound('tag on this request');
      return { data: { tags: kept as object[] }, fields: ['tags'] };
    });
  }

  /** The field table names `rate`/`rate_message`, the sample `rating`/`rating_message`: both are accepted. */
  rate(projectId: string, member: TeammateRecord, requestId: string, input: unknown) {
    const data = parseInput(ratingInput, input);
    const rating = data.rating ?? data.rate;
    const message = data.rating_message ?? data.rate_message;
    if (rating === undefined) throw badInput('rating', 'rating: is required (0 to 5)');
    return this.change(projectId, requestId, member, async () => ({
      data: { rating, ...(message !== undefined ? { rating_message: message } : {}) },
      fields: ['rating', ...(message !== undefined ? ['rating_message'] : [])],
    }));
  }

  /** What happened to the request, oldest first (timeline.ts), for a member who may see it. */
  async timeline(projectId: string, member: TeammateRecord, requestId: string) {
    return requestTimeline(this.db, await this.get(projectId, member, requestId));
  }

  /** What bots stored on the request (the chatbot engine writes attributes.chatbot_parameters). */
  async chatbotParameters(projectId: string, member: TeammateRecord, requestId: string) {
    const request = await this.get(projectId, member, requestId);
    const params = (request.attributes as Record<string, unknown>)?.chatbot_parameters;
    return params && typeof params === 'object' ? params : {};
  }

  async remove(projectId: string, requestId: string) {
    const removed = await transactionWithRetry(this.events, async (tx, emit) => {
      const current = await lockRequest(tx, projectId, requestId);
      if (!current) throw notFound('request');
      await tx.message.deleteMany({ where: { id_project: projectId, request_id: requestId } });
      await tx.requestSeen.deleteMany({ where: { id_project: projectId, request_id: requestId } });
      await tx.request.delete({ where: { id: current.id } });
      await this.routing.syncLoads(tx, projectId, current.participatingAgents);
      await emit({ projectId, name: 'request.delete', subject: current.id, payload: { request_id: requestId } });
      return current;
    });
    return removed;
  }

  /** Whether `member` opened the request (end users may only touch their own). */
  isRequester(request: Request, member: TeammateRecord) {
    return request.requester_id === member.id;
  }

  stillOpen(request: Request) {
    if (!isOpen(request.status)) throw conflict('status: the request is closed; reopen it first', 'status');
  }
}

/** What a bot writes also becomes chatbot parameters (GET .../chatbot/parameters). */
function mergedAttributes(current: unknown, values: Record<string, unknown>, actor: Actor) {
  const merged = { ...(current as object), ...values };
  return actor.member ? merged : withChatbotParameters(merged, values);
}

export function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

/** Request fields that follow from a routing decision. */
export function assignmentData(decision: RoutingDecision, now: Date) {
  const agent = decision.agent;
  const bot = decision.botId;
  return {
    status: decision.status,
    assignment_reason: decision.reason,
    participants: agent ? [agent.userId] : bot ? [botSender(bot)] : [],
    participatingAgents: agent ? [agent.userId] : [],
    participatingBots: bot ? [bot] : [],
    hasBot: !!bot,
    assigned_at: decision.status === RequestStatus.SERVED ? now : null,
  };
}

/**
 * What a change did that readers of the log need without a read (the conversation's timeline, the
 * bots that join): who made it (`by`: a user id, `bot_<id>`, or null for the system), who joined
 * (`added`) or left (`removed`), the department it went to, and the rating given.
 */
export function changeDetails(before: Request, after: Request, fields: string[], by: string | null) {
  const added = after.participants.filter((p) => !before.participants.includes(p));
  const removed = before.participants.filter((p) => !after.participants.includes(p));
  return {
    by,
    ...(added.length ? { added } : {}),
    ...(removed.length ? { removed } : {}),
    ...(after.departmentId !== before.departmentId ? { department_id: after.departmentId } : {}),
    ...(fields.includes('rating') ? { rating: after.rating, rating_message: after.rating_message } : {}),
  };
}
