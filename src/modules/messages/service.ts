import { z } from 'zod';
import { conflict, forbidden, notFound, parseInput } from '../../errors.js';
import { Prisma, type Message, type Request } from '../../generated/prisma/client.js';
import { prepared, type Db, type Tx } from '../../infra/database.js';
import { appendEventsSql, appendedEvents, pendingEvent, type Emit, type EventLog, type LoggedEvent } from '../../infra/event-log.js';
import { cuid } from '../../infra/ids.js';
import { EventRecordCache } from '../../realtime/record-cache.js';
import { surelyVisibleCondition } from '../requests/access.js';
import { knowRelations, relationColumns, relationsFromRow, type RelationRow } from '../requests/relations.js';
import { RequestService, openingFields } from '../requests/service.js';
import { MessageStatus, RequestStatus, isOpen, receiptStatuses } from '../requests/states.js';
import {
  checkRequestId,
  fullName,
  isRetryable,
  isUniqueViolation,
  lockRequest,
  transactionWithRetry,
  viewerOf,
} from '../requests/store.js';
import type { RoutingService } from '../routing/service.js';
import type { TeammateRecord } from '../teammates/service.js';
import type { Actor } from '../requests/actor.js';
import { roleAtLeast } from '../teammates/roles.js';

export type MessageRecord = Message & { request?: Request };

const json = z.record(z.string(), z.unknown());
const source = z
  .string()
  .trim()
  .refine((s) => /^https?:\/\/\S+$/i.test(s) || s.startsWith('/'), 'must be an absolute URL or path');

const clientTimestamp = z.union([z.number(), z.string().regex(/^\d+$/).transform(Number)]).pipe(
  z.number().int().min(0).max(8.64e15, 'is not a time').transform((ms) => new Date(ms)),
);

const content = {
  text: z.string().max(64_000, 'must be at most 64000 characters').default(''),
  type: z.enum(['text', 'image'], { message: 'must be text or image' }).default('text'),
  metadata: z
    .object({ src: source.optional(), width: z.number().positive().optional(), height: z.number().positive().optional() })
    .catchall(z.unknown())
    .optional(),
  attributes: json.default({}),
};

type Content = { text: string; type: 'text' | 'image'; metadata?: { src?: string } & Record<string, unknown>; attributes: Record<string, unknown> };

/** Rules every message shares: an image needs metadata.src, a text message needs text. */
function checkContent(value: Content, ctx: z.RefinementCtx) {
  if (value.type === 'image' && !value.metadata?.src) {
    ctx.addIssue({ code: 'custom', path: ['metadata', 'src'], message: 'is required for an image' });
  }
  if (value.type === 'text' && !value.text.trim()) ctx.addIssue({ code: 'custom', path: ['text'], message: 'is required' });
  const stamp = value.attributes.clienttimestamp;
  if (stamp !== undefined && !clientTimestamp.safeParse(stamp).success) {
    ctx.addIssue({ code: 'custom', path: ['attributes', 'clienttimestamp'], message: 'must be a time in milliseconds' });
  }
}

const postInput = z.object({ ...content, ...openingFields }).superRefine(checkContent);

const importItem = z
  .object({
    ...content,
    sender: z.string().trim().min(1).max(200).optional(),
    senderFullname: z.string().max(200).optional(),
    createdAt: z.iso.datetime({ offset: true, message: 'must be an ISO-8601 timestamp' }).optional(),
  })
  .superRefine(checkContent);
const importInput = z.array(importItem).min(1, 'must hold at least one message').max(1000, 'must hold at most 1000 messages');

const pageInput = z.object({
  page: z.number().int().min(0, 'must be 0 (the first page) or more').max(100_000).default(0),
  limit: z.number().int().min(1, 'must be at least 1').max(100, 'must be at most 100').default(100),
});

/** `subtype: "info"` and `hidden: true` keep a message out of end-user channels. */
export function isHidden(attributes: Record<string, unknown>) {
  return attributes.subtype === 'info' || attributes.hidden === true;
}

function timestampOf(attributes: Record<string, unknown>): Date | undefined {
  const stamp = attributes.clienttimestamp;
  return stamp === undefined ? undefined : clientTimestamp.parse(stamp);
}

/** End users (users and guests) see only their own requests and never hidden messages. */
const isEndUser = (member: TeammateRecord) => !roleAtLeast(member.role, 'agent');

type PostData = z.infer<typeof postInput>;

// The one-statement post (see `quickPost`) answers the columns of its CTEs side by side, the
// request's under their own names, the message's and the event's under prefixes, then what the
// request points to. The columns are named (no `*`): the statement is prepared, and a prepared
// statement's result must not change shape when a migration adds a column.
const requestColumns = Object.values(Prisma.RequestScalarFieldEnum);
const messageColumns = Object.values(Prisma.MessageScalarFieldEnum);
const eventColumns = ['id', 'id_project', 'seq', 'name', 'subject', 'payload', 'createdAt'] as const;
const columnList = (table: string, columns: readonly string[], prefix = '') =>
  Prisma.raw(columns.map((c) => `${table}."${c}"${prefix ? ` AS "${prefix}${c}"` : ''}`).join(', '));
const quickColumns = Prisma.sql`${columnList('r', requestColumns)}, ${columnList('m', messageColumns, 'm.')},
  ${columnList('e', eventColumns, 'e.')}, ${relationColumns}`;

const pick = (row: Record<string, unknown>, columns: readonly string[], prefix = '') =>
  Object.fromEntries(columns.map((c) => [c, row[`${prefix}${c}`]]));

/** Splits a row of the one-statement post into its parts (no message or event when it wrote nothing). */
function quickParts(row: Record<string, unknown>) {
  return {
    request: pick(row, requestColumns) as unknown as Request,
    relations: relationsFromRow(row as unknown as RelationRow),
    message: row['m.id'] === null ? null : (pick(row, messageColumns, 'm.') as unknown as Message),
    event: row['e.id'] === null ? null : (pick(row, eventColumns, 'e.') as unknown as Parameters<typeof appendedEvents>[0][number]),
  };
}

export class MessageService {
  constructor(
    private db: Db,
    private events: EventLog,
    private requests: RequestService,
    private routing: RoutingService,
  ) {}

  /**
   * Stores a message, creating the request when it does not exist yet. The request row stays
   * locked while the message is written, so a close never misses a message in its transcript.
   */
  async post(projectId: string, actor: Actor, requestId: string, input: unknown): Promise<MessageRecord> {
    checkRequestId(requestId);
    const { member } = actor;
    const data = parseInput(postInput, input);
    const hidden = isHidden(data.attributes);
    const createdAt = timestampOf(data.attributes);
    const quick = await this.quickPost(projectId, actor, requestId, data, hidden, createdAt);
    if (quick) return quick;
    return transactionWithRetry(
      this.events,
      async (tx, emit) => {
        let request = await lockRequest(tx, projectId, requestId);
        if (!request) {
          if (!member) throw notFound('request');
          request = await this.requests.open(tx, emit, projectId, member, requestId, { ...data, first_text: data.text });
        } else {
          await this.assertCanWrite(tx, projectId, member, request);
        }
        const message = await tx.message.create({
          data: {
            id_project: projectId,
            request_id: requestId,
            recipient: requestId,
            sender: actor.userId,
            senderFullname: actor.fullname,
            text: data.text,
            type: data.type,
            metadata: data.metadata as object | undefined,
            attributes: data.attributes as object,
            hidden,
            status: MessageStatus.RECEIVED,
            createdBy: actor.userId,
            ...(createdAt ? { createdAt } : {}),
          },
        });
        request = await this.afterMessage(tx, emit, request, member, message);
        await this.emitCreated(emit, message);
        return { ...message, request };
      },
      isUniqueViolation,
    );
  }

  /**
   * The common case as one statement, with no transaction round trips: a message to an existing,
   * open request the caller surely may write to, and which changes nothing on the request (see
   * `afterMessage`). The statement locks the request row, decides, inserts the message, appends
   * `message.create` (taking the project's sequence lock last) and reads what the answer shows of
   * the request. When the request is missing or any condition fails it writes nothing, and answers
   * null: `post` then takes the general path, which creates the request, answers the error or
   * applies the change, under the same rules.
   */
  private async quickPost(
    projectId: string,
    actor: Actor,
    requestId: string,
    data: PostData,
    hidden: boolean,
    createdAt: Date | undefined,
  ): Promise<MessageRecord | null> {
    const { member } = actor;
    // The SQL form of the checks `assertCanWrite` and `afterMessage` make on the locked row `r`.
    let writable = Prisma.sql`r."status" <> ${RequestStatus.CLOSED}`;
    if (member) {
      const fromRequester = Prisma.sql`COALESCE(r."requester_id" = ${member.id}, FALSE)`;
      const routes = Prisma.sql`(${fromRequester} AND r."status" IN (${RequestStatus.TEMPORARY}, ${RequestStatus.ABANDONED}))`;
      const firstResponse = roleAtLeast(member.role, 'agent')
        ? Prisma.sql` OR (NOT ${fromRequester} AND r."first_response_at" IS NULL)`
        : Prisma.empty;
      writable = Prisma.sql`${writable} AND ${surelyVisibleCondition(viewerOf(member))} AND NOT (${routes}${firstResponse})`;
    }
    const now = new Date();
    const id = cuid();
    const event = pendingEvent(
      { projectId, name: 'message.create', subject: id, payload: { request_id: requestId, sender: actor.userId, hidden } },
      now,
    );
    let rows: Record<string, unknown>[];
    try {
      rows = await this.db.$queryRaw<Record<string, unknown>[]>`${Prisma.raw(prepared)}
        WITH "request" AS (
          SELECT r.*, COALESCE(${writable}, FALSE) AS "quick" FROM "Request" r
          WHERE r."id_project" = ${projectId} AND r."request_id" = ${requestId}
          FOR UPDATE),
        "message" AS (
          INSERT INTO "Message" ("id", "id_project", "request_id", "sender", "senderFullname", "recipient", "status", "text",
            "type", "metadata", "attributes", "hidden", "receipts", "createdBy", "createdAt", "updatedAt", "v")
          SELECT ${id}, ${projectId}, ${requestId}, ${actor.userId}, ${actor.fullname}, ${requestId}, ${MessageStatus.RECEIVED},
            ${data.text}, ${data.type}, ${data.metadata === undefined ? null : JSON.stringify(data.metadata)}::jsonb,
            ${JSON.stringify(data.attributes)}::jsonb, ${hidden}, '{}'::jsonb, ${actor.userId},
            ${createdAt ?? now}::timestamp(3), ${now}::timestamp(3), 0
          FROM "request" WHERE "quick" AND EXISTS (SELECT 1 FROM "Project" WHERE "id" = ${projectId})
          RETURNING ${columnList('"Message"', messageColumns)}),
        ${appendEventsSql(projectId, [event], Prisma.sql`EXISTS (SELECT 1 FROM "message")`)}
        SELECT ${quickColumns}
        FROM "request" r LEFT JOIN "message" m ON TRUE LEFT JOIN "appended" e ON TRUE`;
    } catch (error) {
      // A deadlock or serialisation failure wrote nothing: the general path retries.
      if (isRetryable(error)) return null;
      throw error;
    }
    if (!rows.length) return null;
    const parts = quickParts(rows[0]);
    if (!parts.message) return null;
    if (!parts.event) throw new Error(`event log: no project ${projectId} to append message.create to`);
    const [logged] = appendedEvents([parts.event]);
    if (!parts.request.participatingBots.length) this.botless.add(logged);
    knowRelations(parts.request, parts.relations);
    this.records.prime(logged, parts.message);
    await this.events.committed([logged]);
    return { ...parts.message, request: parts.request };
  }

  /** message.create events this process logged for a request without a bot taking part at the time. */
  private botless = new WeakSet<LoggedEvent>();

  /**
   * True when `event` is a message this process wrote while no bot took part in its request
   * (known without a read; false when unknown).
   */
  writtenWithoutBots(event: LoggedEvent) {
    return this.botless.has(event);
  }

  /** A bot (no member) was checked by field auth: it takes part in the request. */
  private async assertCanWrite(tx: Tx, projectId: string, member: TeammateRecord | null, request: Request) {
    if (member) await this.requests.assertCanSee(tx, projectId, member, request);
    if (!isOpen(request.status)) throw conflict('status: the request is closed; reopen it before writing', 'status');
  }

  /**
   * What a message changes on its request: the requester's first message routes a preflight or
   * abandoned request; the first agent message sets first_response_at and waiting_time.
   */
  private async afterMessage(tx: Tx, emit: Emit, request: Request, member: TeammateRecord | null, message: Message) {
    if (!member) return request;
    const fromRequester = request.requester_id === member.id;
    if (fromRequester && (request.status === RequestStatus.TEMPORARY || request.status === RequestStatus.ABANDONED)) {
      const decision = await this.routing.decide(tx, request.id_project, {
        departmentId: request.departmentId,
        requesterUserId: member.id_user,
      });
      const change = this.requests.rerouting(request, decision);
      const updated = await tx.request.update({
        where: { id: request.id },
        data: { ...change.data, preflight: false, first_text: request.first_text || message.text },
      });
      if (change.assignedTo) await this.routing.recordAssignment(tx, request.id_project, change.assignedTo, request.id);
      await this.routing.syncLoads(tx, request.id_project, change.loads ?? []);
      await emit({
        projectId: request.id_project,
        name: 'request.update',
        subject: request.id,
        payload: { request_id: request.request_id, fields: [...change.fields, 'preflight'], status: updated.status },
      });
      return updated;
    }
    if (!fromRequester && !request.first_response_at && roleAtLeast(member.role, 'agent')) {
      const first = await tx.message.findFirst({
        where: { id_project: request.id_project, request_id: request.request_id, createdBy: await this.requesterUser(tx, request) },
        orderBy: { createdAt: 'asc' },
        select: { createdAt: true },
      });
      const waiting = first ? Math.max(0, message.createdAt.getTime() - first.createdAt.getTime()) : null;
      const updated = await tx.request.update({
        where: { id: request.id },
        data: { first_response_at: message.createdAt, waiting_time: waiting },
      });
      await emit({
        projectId: request.id_project,
        name: 'request.update',
        subject: request.id,
        payload: { request_id: request.request_id, fields: ['first_response_at', 'waiting_time'], status: updated.status },
      });
      return updated;
    }
    return request;
  }

  private async requesterUser(tx: Tx, request: Request) {
    return (await this.requests.requesterUserId(tx, request)) ?? request.createdBy;
  }

  private emitCreated(emit: Emit, message: Message) {
    return emit({
      projectId: message.id_project,
      name: 'message.create',
      subject: message.id,
      payload: { request_id: message.request_id, sender: message.sender, hidden: message.hidden },
    });
  }

  /** Mass import, all or nothing: senders, names and timestamps are kept as given. */
  async import(projectId: string, member: TeammateRecord, requestId: string, input: unknown): Promise<MessageRecord> {
    checkRequestId(requestId);
    const { messages: items } = parseInput(z.object({ messages: importInput }), { messages: input });
    const start = Date.now();
    return transactionWithRetry(
      this.events,
      async (tx, emit) => {
        let request = await lockRequest(tx, projectId, requestId);
        if (!request) request = await this.requests.open(tx, emit, projectId, member, requestId, { first_text: items[0].text });
        else await this.assertCanWrite(tx, projectId, member, request);
        const messages = await tx.message.createManyAndReturn({
          data: items.map((item, i) => ({
            id_project: projectId,
            request_id: requestId,
            recipient: requestId,
            sender: item.sender ?? member.id_user,
            senderFullname: item.senderFullname ?? (item.sender ? '' : fullName(member)),
            text: item.text,
            type: item.type,
            metadata: item.metadata as object | undefined,
            attributes: item.attributes as object,
            hidden: isHidden(item.attributes),
            status: MessageStatus.RECEIVED,
            createdBy: member.id_user,
            // Items without a time keep their order a millisecond apart.
            createdAt: item.createdAt ? new Date(item.createdAt) : (timestampOf(item.attributes) ?? new Date(start + i)),
          })),
        });
        for (const message of messages) await this.emitCreated(emit, message);
        if (!request.first_text) {
          request = await tx.request.update({ where: { id: request.id }, data: { first_text: items[0].text } });
        }
        return { ...messages[messages.length - 1], request };
      },
      isUniqueViolation,
    );
  }

  /** Messages of a request, oldest first. */
  async list(projectId: string, member: TeammateRecord, requestId: string, query: unknown): Promise<MessageRecord[]> {
    const { page, limit } = parseInput(pageInput, query);
    const request = await this.requests.get(projectId, member, requestId);
    const messages = await this.db.message.findMany({
      where: { id_project: projectId, request_id: requestId, ...(isEndUser(member) ? { hidden: false } : {}) },
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
      skip: page * limit,
      take: limit,
    });
    return messages.map((m) => ({ ...m, request }));
  }

  async get(projectId: string, member: TeammateRecord, requestId: string, messageId: string): Promise<MessageRecord> {
    const request = await this.requests.get(projectId, member, requestId);
    const message = await this.db.message.findFirst({ where: { id: messageId, id_project: projectId, request_id: requestId } });
    if (!message || (message.hidden && isEndUser(member))) throw notFound('message');
    return { ...message, request };
  }

  /**
   * Records that the caller received or saw a message. Receipts are per participant and only move
   * forward; the message status follows the furthest one (a stored message is already RECEIVED).
   */
  async acknowledge(projectId: string, member: TeammateRecord, requestId: string, messageId: string, input: unknown) {
    const { status } = parseInput(
      z.object({
        status: z
          .number({ message: `must be one of ${receiptStatuses.join(', ')}` })
          .refine((s) => (receiptStatuses as readonly number[]).includes(s), `must be one of ${receiptStatuses.join(', ')}`),
      }),
      input,
    );
    const message = await this.get(projectId, member, requestId, messageId);
    if (message.sender === member.id_user) throw forbidden('the sender does not acknowledge their own message');
    const changed = await this.events.transaction(async (tx, emit) => {
      const count = await tx.$executeRaw`
        UPDATE "Message"
        SET "receipts" = "receipts" || jsonb_build_object(${member.id_user}::text, ${status}::int),
            "status" = GREATEST("status", ${status}::int),
            "v" = "v" + 1, "updatedAt" = now()
        WHERE "id" = ${message.id} AND COALESCE(("receipts"->>${member.id_user}::text)::int, 0) < ${status}::int`;
      if (count) {
        await emit({
          projectId,
          name: 'message.update',
          subject: message.id,
          payload: { request_id: requestId, receipt: status, by: member.id_user, hidden: message.hidden },
        });
      }
      return count > 0;
    });
    if (!changed) return message;
    const updated = await this.db.message.findUniqueOrThrow({ where: { id: message.id } });
    return { ...updated, request: message.request };
  }

  private records = new EventRecordCache<Message>((event) =>
    this.db.message.findFirst({ where: { id: event.subject, id_project: event.projectId } }),
  );

  /** The message a logged event is about (read once per node), or null when it is gone. */
  fromEvent(event: LoggedEvent) {
    return this.records.get(event);
  }
}
