import { z } from 'zod';
import { conflict, forbidden, notFound, parseInput } from '../../errors.js';
import type { Message, Request } from '../../generated/prisma/client.js';
import type { Db, Tx } from '../../infra/database.js';
import type { Emit, EventLog, LoggedEvent } from '../../infra/event-log.js';
import { EventRecordCache } from '../../realtime/record-cache.js';
import { knowRelations } from '../requests/relations.js';
import type { Logger } from '../../infra/logger.js';
import { expandMicrolanguage, wantsMicrolanguage } from './microlanguage.js';
import { PostBatcher, type BatchOutcome } from './post-batches.js';
import {
  authorParams,
  firstResponded,
  firstResponseData,
  isFirstResponse,
  messageCreated,
  messageRow,
  requestClosed,
  routesRequest,
  type FallbackReason,
} from './rules.js';
import { holds } from '../requests/conditions.js';
import { RequestService, changeDetails, openingFields } from '../requests/service.js';
import { receiptStatuses } from '../requests/states.js';
import {
  checkRequestId,
  fullName,
  lockRequest,
  transactionWithRetry,
} from '../requests/request-rows.js';
import { isUniqueViolation } from '../../infra/database-errors.js';
import type { RoutingService } from '../routing/service.js';
import type { TeammateRecord } from '../teammates/service.js';
import type { Actor } from '../requests/actor.js';
import { roleAtLeast } from '../teammates/roles.js';
import { isHidden, seesMessage, visibleMessages } from './visibility.js';

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
  // `file`: an attachment that is not an image (Tiledesk's file messages), named by metadata.src.
  type: z.enum(['text', 'image', 'file'], { message: 'must be text, image or file' }).default('text'),
  metadata: z
    .object({ src: source.optional(), width: z.number().positive().optional(), height: z.number().positive().optional() })
    .catchall(z.unknown())
    .optional(),
  attributes: json.default({}),
};

type Content = { text: string; type: 'text' | 'image' | 'file'; metadata?: { src?: string } & Record<string, unknown>; attributes: Record<string, unknown> };

/** Rules every message shares: an image or a file needs metadata.src, a text message needs text. */
function checkContent(value: Content, ctx: z.RefinementCtx) {
  if (value.type !== 'text' && !value.metadata?.src) {
    ctx.addIssue({ code: 'custom', path: ['metadata', 'src'], message: `is required for ${value.type === 'image' ? 'an image' : 'a file'}` });
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

const leadDetailsInput = z.object({
  updateUserEmail: z.email({ message: 'must be an e-mail address' }).max(320).optional(),
  updateUserFullname: z.string().trim().min(1, 'must not be empty').max(200).optional(),
});

const leadDetailsAttributes = z.object({ attributes: leadDetailsInput });

/**
 * The user details a message sends back to the widget (`attributes.updateUserEmail`,
 * `updateUserFullname`), which the request's lead takes too; null when it sends none.
 */
function leadDetails(attributes: Record<string, unknown>) {
  const { updateUserEmail, updateUserFullname } = parseInput(leadDetailsAttributes, { attributes }).attributes;
  if (updateUserEmail === undefined && updateUserFullname === undefined) return null;
  return { ...(updateUserEmail !== undefined ? { email: updateUserEmail } : {}), ...(updateUserFullname !== undefined ? { fullname: updateUserFullname } : {}) };
}

export { isHidden };

function timestampOf(attributes: Record<string, unknown>): Date | undefined {
  const stamp = attributes.clienttimestamp;
  return stamp === undefined ? undefined : clientTimestamp.parse(stamp);
}


export interface PostOptions {
  /**
   * Runs first in the post's transaction, the request locked: throws to write nothing (a scheduled
   * message another node sent, or whose conversation closed).
   */
  claim?: (tx: Tx, request: Request) => Promise<void>;
  /** Runs in the same transaction once the message is written. */
  written?: (tx: Tx, message: Message) => Promise<void>;
}

export class MessageService {
  constructor(
    private db: Db,
    private events: EventLog,
    private requests: RequestService,
    private routing: RoutingService,
    private logger?: Logger,
  ) {
    this.batches = new PostBatcher(db, events, (written) => {
      if (!written.request.participatingBots.length) this.botless.add(written.event);
      knowRelations(written.request, written.relations);
      this.records.prime(written.event, written.message);
    });
  }

  private batches: PostBatcher;

  /**
   * Whether posts try the batched statement first (the fast path). Off, every post takes the
   * general path: the same rules, one transaction each (the two-paths test compares them).
   */
  batched = true;

  private fallbackCounts = new Map<FallbackReason, number>();

  /** How many posts fell back from the batched statement to the general path, by reason, since start. */
  fallbacks(): Partial<Record<FallbackReason, number>> {
    return Object.fromEntries(this.fallbackCounts);
  }

  private fellBack(projectId: string, requestId: string, outcome: Extract<BatchOutcome, { written: false }>) {
    const { reason, error } = outcome;
    this.fallbackCounts.set(reason, (this.fallbackCounts.get(reason) ?? 0) + 1);
    // A missing request (a first message) or a rule the general path applies is expected; a failed
    // statement is worth a look (it costs every post of its batch a second write).
    const line = { projectId, requestId, reason, ...(error ? { err: error } : {}) };
    if (reason === 'statement_failed') this.logger?.warn(line, 'message post fell back from the batched statement');
    else this.logger?.info(line, 'message post fell back from the batched statement');
  }

  /**
   * Stores a message, creating the request when it does not exist yet (located by `clientAddress`).
   * The request row stays locked while the message is written, so a close never misses a message
   * in its transcript.
   */
  async post(projectId: string, actor: Actor, requestId: string, input: unknown, clientAddress?: string | null, options: PostOptions = {}): Promise<MessageRecord> {
    checkRequestId(requestId);
    const { member } = actor;
    const data = parseInput(postInput, input);
    // The microlanguage may make one post several messages: those take the general path, in one transaction.
    const parts = wantsMicrolanguage(data.attributes) ? expandMicrolanguage(data) : [data];
    const details = leadDetails(data.attributes);
    const hidden = isHidden(data.attributes);
    const stamp = timestampOf(data.attributes);
    if (options.claim) {
      // A scheduled send claims its row in the transaction that writes the message: the general path.
    } else if (this.batched && details) {
      this.fellBack(projectId, requestId, { written: false, reason: 'updates_lead' });
    } else if (this.batched && parts.length === 1) {
      const outcome = await this.batches.post(projectId, { actor, requestId, ...data, ...parts[0], hidden, createdAt: stamp });
      if (outcome.written) return { ...outcome.message, request: outcome.request };
      this.fellBack(projectId, requestId, outcome);
    } else if (this.batched) {
      this.fellBack(projectId, requestId, { written: false, reason: 'split_message' });
    }
    // Parts of a split post keep their order a millisecond apart.
    const start = stamp ?? (parts.length > 1 ? new Date() : undefined);
    return transactionWithRetry(
      this.events,
      async (tx, emit) => {
        let request = await lockRequest(tx, projectId, requestId);
        if (options.claim) {
          if (!request) throw notFound('request');
          await options.claim(tx, request);
        }
        if (!request) {
          if (!member) throw notFound('request');
          request = await this.requests.open(tx, emit, projectId, member, requestId, { ...data, first_text: parts[0].text }, clientAddress);
        } else {
          await this.assertCanWrite(tx, projectId, member, request);
        }
        let message: Message | undefined;
        for (const [i, part] of parts.entries()) {
          message = await tx.message.create({
            data: messageRow({
              projectId,
              requestId,
              sender: actor.userId,
              senderFullname: actor.fullname,
              createdBy: actor.userId,
              ...part,
              hidden,
              createdAt: start && new Date(start.getTime() + i),
            }),
          });
          request = await this.afterMessage(tx, emit, request, actor, message);
        }
        if (details && request.leadId) {
          // The widget shows the new details; the conversation's lead gets them too.
          const lead = await tx.lead.update({ where: { id: request.leadId }, data: details });
          await emit({ projectId, name: 'lead.update', subject: lead.id, payload: { fields: Object.keys(details) } });
        }
        await options.written?.(tx, message!);
        return { ...message!, request };
      },
      isUniqueViolation,
    );
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
    if (holds(requestClosed, request, {})) throw conflict('status: the request is closed; reopen it before writing', 'status');
  }

  /**
   * Logs a written message's `message.create`, with what it changes on its request: the
   * requester's first message routes a preflight or abandoned request (its `request.update` logged
   * first); a teammate's first answer sets first_response_at and waiting_time (logged after the
   * message, as the batched statement logs it). The conditions, the fields and the event are
   * `rules.ts`'s: the batched statement reads them as SQL, and leaves the routing posts here.
   */
  private async afterMessage(tx: Tx, emit: Emit, request: Request, actor: Actor, message: Message) {
    const { member } = actor;
    const author = authorParams(actor);
    if (member && holds(routesRequest, request, author)) {
      const decision = await this.routing.decide(tx, request.id_project, {
        departmentId: request.departmentId,
        requesterUserId: member.id_user,
      });
      const change = this.requests.rerouting(request, decision);
      const updated = await tx.request.update({
        where: { id: request.id },
        data: { ...change.data, preflight: false, first_text: request.first_text || message.text },
      });
      const assigned = change.assignedTo ? { userId: change.assignedTo, requestId: request.id } : undefined;
      await this.routing.syncLoads(tx, request.id_project, change.loads ?? [], assigned);
      await emit({
        projectId: request.id_project,
        name: 'request.update',
        subject: request.id,
        payload: {
          request_id: request.request_id,
          fields: [...change.fields, 'preflight'],
          status: updated.status,
          ...changeDetails(request, updated, change.fields, null),
        },
      });
      await emit(messageCreated(message));
      return updated;
    }
    await emit(messageCreated(message));
    if (holds(isFirstResponse, request, author)) {
      const first = await tx.message.findFirst({
        where: { id_project: request.id_project, request_id: request.request_id, createdBy: await this.requesterUser(tx, request) },
        orderBy: { createdAt: 'asc' },
        select: { createdAt: true },
      });
      const updated = await tx.request.update({ where: { id: request.id }, data: firstResponseData(message.createdAt, first?.createdAt ?? null) });
      await emit(firstResponded(updated));
      return updated;
    }
    return request;
  }

  /** The requester as a user (`requesterUserSql` in rules.ts is the batched statement's reading). */
  private async requesterUser(tx: Tx, request: Request) {
    return (await this.requests.requesterUserId(tx, request)) ?? request.createdBy;
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
          data: items.map((item, i) =>
            messageRow({
              projectId,
              requestId,
              ...item,
              sender: item.sender ?? member.id_user,
              senderFullname: item.senderFullname ?? (item.sender ? '' : fullName(member)),
              createdBy: member.id_user,
              hidden: isHidden(item.attributes),
              // Items without a time keep their order a millisecond apart.
              createdAt: item.createdAt ? new Date(item.createdAt) : (timestampOf(item.attributes) ?? new Date(start + i)),
            }),
          ),
        });
        for (const message of messages) await emit(messageCreated(message));
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
      where: { id_project: projectId, request_id: requestId, ...visibleMessages(member) },
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
      skip: page * limit,
      take: limit,
    });
    return messages.map((m) => ({ ...m, request }));
  }

  async get(projectId: string, member: TeammateRecord, requestId: string, messageId: string): Promise<MessageRecord> {
    const request = await this.requests.get(projectId, member, requestId);
    const message = await this.db.message.findFirst({ where: { id: messageId, id_project: projectId, request_id: requestId } });
    if (!message || !seesMessage(member, message)) throw notFound('message');
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
