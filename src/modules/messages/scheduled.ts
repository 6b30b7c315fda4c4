import { z } from 'zod';
import { AppError, badInput, conflict, notFound, parseInput } from '../../errors.js';
import type { ScheduledMessage } from '../../generated/prisma/client.js';
import type { Db } from '../../infra/database.js';
import type { EventLog } from '../../infra/event-log.js';
import { periodicSweep, type BackgroundTask } from '../../infra/job-queue.js';
import type { Logger } from '../../infra/logger.js';
import type { RequestService } from '../requests/service.js';
import { checkRequestId, fullName, findRequest, transactionWithRetry } from '../requests/request-rows.js';
import { isOpen } from '../requests/states.js';
import type { TeammateRecord, TeammateService } from '../teammates/service.js';
import type { MessageService } from './service.js';

// Messages an agent writes now to be sent later. Each row is its own durable timer: every node
// sweeps the due rows, and a send moves its row from `scheduled` to `sent` in the very
// transaction that writes the message (the row's conditional update waits for, then loses to, a
// concurrent send). A node killed mid-send rolls back and the next sweep sends it; two nodes
// never both send it. A conversation closed meanwhile gets nothing: the row becomes `skipped`
// and a `message.scheduled_skipped` event tells the agent (the request's timeline shows it).

/** How far ahead a message may be scheduled. */
const maxAheadMs = 366 * 86_400_000;
const maxText = 10_000;

const when = z.iso
  .datetime({ offset: true, message: 'must be an ISO-8601 timestamp with a time zone, e.g. 2026-12-01T09:00:00Z' })
  .transform((value) => new Date(value));

const createInput = z.object({
  text: z.string().trim().min(1, 'is required').max(maxText, `must be at most ${maxText} characters`),
  scheduled_at: when,
});
const updateInput = z.object({
  text: z.string().trim().min(1, 'must not be empty').max(maxText, `must be at most ${maxText} characters`).optional(),
  scheduled_at: when.optional(),
});

export type ScheduledStatus = 'scheduled' | 'sent' | 'cancelled' | 'skipped';

/** Lost the row to another send, or its conversation closed: nothing was written. */
class NotSent extends Error {}

function checkTime(at: Date, now = Date.now()) {
  if (at.getTime() <= now) throw badInput('scheduled_at', 'scheduled_at: must be in the future');
  if (at.getTime() > now + maxAheadMs) throw badInput('scheduled_at', 'scheduled_at: must be at most a year ahead');
}

export class ScheduledMessages {
  constructor(
    private db: Db,
    private events: EventLog,
    private requests: RequestService,
    private messages: MessageService,
    private teammates: TeammateService,
    private logger: Logger,
    private sweepIntervalMs: number,
  ) {}

  /** The request, when the agent may see it; 404 otherwise (another project's included). */
  private async visibleRequest(projectId: string, member: TeammateRecord, requestId: string) {
    checkRequestId(requestId);
    return this.requests.get(projectId, member, requestId);
  }

  private async own(projectId: string, requestId: string, id: string) {
    const row = await this.db.scheduledMessage.findFirst({ where: { id, id_project: projectId, request_id: requestId } });
    if (!row) throw notFound('scheduled message');
    return row;
  }

  async schedule(projectId: string, member: TeammateRecord, requestId: string, input: unknown): Promise<ScheduledMessage> {
    const data = parseInput(createInput, input);
    checkTime(data.scheduled_at);
    const request = await this.visibleRequest(projectId, member, requestId);
    if (!isOpen(request.status)) throw conflict('request: the conversation is closed; reopen it first', 'request_id');
    return this.db.scheduledMessage.create({
      data: { id_project: projectId, request_id: request.request_id, sender: member.id_user, text: data.text, scheduled_at: data.scheduled_at },
    });
  }

  /** The request's scheduled messages, every status, soonest first. */
  async list(projectId: string, member: TeammateRecord, requestId: string) {
    const request = await this.visibleRequest(projectId, member, requestId);
    return this.db.scheduledMessage.findMany({
      where: { id_project: projectId, request_id: request.request_id },
      orderBy: [{ scheduled_at: 'asc' }, { id: 'asc' }],
    });
  }

  /** Text or time, while it is still scheduled (a conditional update: a send in progress wins). */
  async update(projectId: string, member: TeammateRecord, requestId: string, id: string, input: unknown) {
    const data = parseInput(updateInput, input);
    if (data.text === undefined && data.scheduled_at === undefined) throw badInput('text', 'text or scheduled_at: give at least one');
    if (data.scheduled_at) checkTime(data.scheduled_at);
    await this.visibleRequest(projectId, member, requestId);
    const row = await this.own(projectId, requestId, id);
    const changed = await this.db.scheduledMessage.updateMany({ where: { id: row.id, status: 'scheduled' }, data });
    if (!changed.count) throw conflict(`status: the message is ${(await this.own(projectId, requestId, id)).status}, not scheduled any more`, 'status');
    return this.own(projectId, requestId, id);
  }

  async cancel(projectId: string, member: TeammateRecord, requestId: string, id: string) {
    await this.visibleRequest(projectId, member, requestId);
    const row = await this.own(projectId, requestId, id);
    const changed = await this.db.scheduledMessage.updateMany({ where: { id: row.id, status: 'scheduled' }, data: { status: 'cancelled' } });
    if (!changed.count) throw conflict(`status: the message is ${(await this.own(projectId, requestId, id)).status}, not scheduled any more`, 'status');
    return this.own(projectId, requestId, id);
  }

  /** Sends (or skips) every due message; answers how many it sent. Safe on any number of nodes at once. */
  async sendDue(now = new Date(), batch = 50): Promise<number> {
    const due = await this.db.scheduledMessage.findMany({
      where: { status: 'scheduled', scheduled_at: { lte: now } },
      orderBy: [{ scheduled_at: 'asc' }, { id: 'asc' }],
      take: batch,
      select: { id: true },
    });
    let sent = 0;
    for (const { id } of due) {
      try {
        if (await this.sendOne(id)) sent++;
      } catch (error) {
        this.logger.error({ err: error, scheduledMessage: id }, 'scheduled message send failed; the next sweep tries again');
      }
    }
    return sent;
  }

  /** True when this call wrote the message. */
  async sendOne(id: string): Promise<boolean> {
    const row = await this.db.scheduledMessage.findUnique({ where: { id } });
    if (!row || row.status !== 'scheduled') return false;
    const request = await findRequest(this.db, row.id_project, row.request_id).catch(() => null);
    if (!request || !isOpen(request.status)) return this.skip(row, request ? 'closed' : 'deleted');
    const member = await this.teammates.getByUser(row.id_project, row.sender).catch(() => null);
    if (!member) return this.skip(row, 'sender_left');
    try {
      await this.messages.post(
        row.id_project,
        { userId: member.id_user, fullname: fullName(member), member },
        row.request_id,
        { text: row.text, attributes: { ...(row.attributes as object), scheduled_message_id: row.id } },
        null,
        {
          claim: async (tx, current) => {
            if (!isOpen(current.status)) throw new NotSent('closed meanwhile');
            const claimed = await tx.scheduledMessage.updateMany({ where: { id: row.id, status: 'scheduled' }, data: { status: 'sent' } });
            if (!claimed.count) throw new NotSent('sent or cancelled by another');
          },
          written: async (tx, message) => {
            await tx.scheduledMessage.update({ where: { id: row.id }, data: { messageId: message.id } });
          },
        },
      );
      return true;
    } catch (error) {
      // Closed meanwhile: the next look finds it closed and skips it.
      if (error instanceof NotSent) return (await this.db.scheduledMessage.findUnique({ where: { id } }))?.status === 'scheduled' ? this.sendOne(id) : false;
      // Its author may no longer write in this conversation (moved out of its department): for good.
      if (error instanceof AppError && error.code === 'FORBIDDEN') return this.skip(row, 'sender_cannot_write');
      throw error;
    }
  }

  /** Not sent, for good: the row says why, and an event on the request tells the agent. */
  private async skip(row: ScheduledMessage, reason: 'closed' | 'deleted' | 'sender_left' | 'sender_cannot_write') {
    await transactionWithRetry(this.events, async (tx, emit) => {
      const changed = await tx.scheduledMessage.updateMany({ where: { id: row.id, status: 'scheduled' }, data: { status: 'skipped', reason } });
      if (!changed.count) return;
      const request = await tx.request.findUnique({ where: { id_project_request_id: { id_project: row.id_project, request_id: row.request_id } }, select: { id: true } });
      await emit({
        projectId: row.id_project,
        name: 'message.scheduled_skipped',
        subject: request?.id ?? row.request_id,
        payload: { request_id: row.request_id, scheduled_message_id: row.id, by: row.sender, reason },
      });
    });
    this.logger.info({ project: row.id_project, request: row.request_id, scheduledMessage: row.id, reason }, 'scheduled message not sent');
    return false;
  }

  /** The sweep beside this process's workers: once at start, then every interval. */
  backgroundTask(): BackgroundTask {
    return periodicSweep({
      name: 'scheduled-messages',
      intervalMs: this.sweepIntervalMs,
      sweep: () => this.sendDue(),
      logger: this.logger,
      failure: 'scheduled message sweep failed',
    });
  }
}
