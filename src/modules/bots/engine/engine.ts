import { Prisma, type Bot, type Message, type Request } from '../../../generated/prisma/client.js';
import type { Config } from '../../../config.js';
import type { Db } from '../../../infra/database.js';
import type { EventConsumer } from '../../../infra/event-consumers.js';
import type { LoggedEvent } from '../../../infra/event-log.js';
import type { EventBus } from '../../../infra/event-bus.js';
import type { Infrastructure } from '../../../infra/index.js';
import { periodicSweep, type BackgroundTask, type JobQueue } from '../../../infra/job-queue.js';
import type { Logger } from '../../../infra/logger.js';
import type { RecordRenderer } from '../../webhooks/render.js';
import type { QaService } from '../../kb/answering/qa.js';
import { isHidden, type MessageService } from '../../messages/service.js';
import type { Actor } from '../../requests/actor.js';
import type { RequestService } from '../../requests/service.js';
import { isOpen, RequestStatus } from '../../requests/states.js';
import type { AssignmentService } from '../../routing/assignment.js';
import type { RoutingService } from '../../routing/service.js';
import { botSender, botSenderPrefix, isBotSender, isBotSenderSql } from '../../auth/bot-identity.js';
import { externalBotJob } from '../jobs.js';
import { chatbotParameters, withChatbotParameters } from '../../requests/chatbot-parameters.js';
import { botParticipants } from '../../requests/participants.js';
import { pendingForm, respond, startCommand, type BotReply } from './dialog.js';
import { ExternalBotSender } from './external.js';
import { knowledgeAnswer } from './kb-answer.js';
import { IntentIndexCache } from './matcher.js';

// Bots answer end-user messages in the requests they take part in. The bots' consumer of the event
// log (infra/event-consumers.ts) takes a turn on each message.create that calls for an answer,
// wherever the consumers run; a turn is recorded (BotTurn), so it is never taken twice.
// An internal bot answers in its turn from its intents (or a knowledge base); an external bot gets
// the message POSTed to its engine by a job of its own (external.ts).

export interface ConversationServices {
  requests: RequestService;
  messages: MessageService;
  assignments: AssignmentService;
  routing: RoutingService;
}

/** Longest a batch of the log waits for its turns before the bots' cursor moves on without the slow ones. */
const turnWaitMs = 2000;

/** A bot stops answering a request after this many messages in one minute (two bots talking in a loop). */
export const loopGuard = { maxMessages: 20, windowMs: 60_000 };

export const noAgentMessage = 'No agent is available right now: we will answer you as soon as one is back.';
const loopGuardNotice = 'The bot stopped answering this conversation: it was sending too many messages (loop guard).';

/** One of a bot's latest messages in a request. */
interface RecentMessage {
  sender: string;
  createdAt: Date;
  attributes: unknown;
}

const attributesOf = (value: unknown) => (value && typeof value === 'object' ? (value as Record<string, unknown>) : {});

/**
 * The messages the bots of a request answer, judged on the message alone: one the end user sees
 * (not hidden, no info notice) that no bot wrote. (Whether it is the requester's is judged on the
 * request, in `takeTurn`.) The event, the row and the sweep's SQL all ask this.
 */
function botAnswers(message: { hidden: boolean; sender: string; attributes?: unknown }) {
  return !message.hidden && !isHidden(attributesOf(message.attributes)) && !isBotSender(message.sender);
}

/** `botAnswers` over the message row `m` (`hidden` is stored from the attributes when the message is posted). */
const botAnswersSql = Prisma.sql`m."hidden" = false AND NOT ${isBotSenderSql(Prisma.sql`m."sender"`)}`;

/** Events that may need a bot's answer; the rest is known from the rows. */
const mayNeedAnswer = (event: LoggedEvent) =>
  event.name === 'message.create' &&
  typeof event.payload.request_id === 'string' &&
  botAnswers({ hidden: event.payload.hidden === true, sender: String(event.payload.sender ?? '') });

/**
 * Bots that joined a conversation under way (re-routed to their department, added by hand, routed
 * again on reopening). A preflight request routed by its first message is not one: that message
 * gets the bots' turn as any other does.
 */
function botsJoining(event: LoggedEvent): string[] {
  if (event.name !== 'request.update' || !Array.isArray(event.payload.added)) return [];
  if (Array.isArray(event.payload.fields) && event.payload.fields.includes('preflight')) return [];
  return botParticipants(event.payload.added.map(String));
}

export class BotEngine {
  readonly external: ExternalBotSender;
  private db: Db;
  private queue: JobQueue;
  private bus: EventBus;
  private logger: Logger;
  private sweepSettings: Config['bots'];
  private indexes = new IntentIndexCache();
  /** Per request, the turn in progress: messages of one conversation are answered in order. */
  private turns = new Map<string, Promise<void>>();

  constructor(
    infra: Infrastructure,
    private conversations: ConversationServices,
    records: RecordRenderer,
    /** Question answering over knowledge bases, for bots that name one (kb-answer.ts). */
    private qa?: QaService,
  ) {
    this.db = infra.database.prisma;
    this.queue = infra.queue;
    this.bus = infra.bus;
    this.logger = infra.logger;
    this.sweepSettings = infra.config.bots;
    this.external = new ExternalBotSender(this.db, infra.config, () => ({ db: this.db, records }));
  }

  /**
   * The bots' consumer of the event log: a visitor's message in a request a bot takes part in, or
   * bots joining a conversation under way, is a turn, taken here (wherever the consumers run: with
   * `RUN_WORKERS=false` on the nodes, in the worker processes). The cursor moves once the batch's
   * turns are taken, so a process dying before reads them again (a turn already taken is known by
   * its record or its answer, and not taken twice); a slow turn (a model's answer) holds the cursor
   * for `turnWaitMs` at most, then goes on without it, covered by the sweep should the process die.
   */
  readonly consumer: EventConsumer = {
    name: 'bots',
    wants: (event) => botsJoining(event).length > 0 || mayNeedAnswer(event),
    // Written by this process while no bot took part in the request: nothing to answer, nothing to read.
    wakesFor: (event) => botsJoining(event).length > 0 || (mayNeedAnswer(event) && !this.conversations.messages.writtenWithoutBots(event)),
    handle: async (projectId, events) => {
      const asked = events.filter((e) => e.name === 'message.create');
      // A message written before bots joined its request is not theirs to answer on its own: their
      // greeting takes it up if it is still the last word (onBotsJoined).
      const withBots = asked.length ? await this.botsJoinedSince(projectId, asked) : new Map<string, number[]>();
      const turns = events.flatMap((event) => {
        const requestId = String(event.payload.request_id);
        const joined = botsJoining(event);
        if (joined.length) return [this.onBotsJoined(projectId, requestId, joined, event.id)];
        const joins = withBots.get(requestId);
        return joins && !joins.some((seq) => seq > event.seq) ? [this.onMessageCreated(projectId, requestId, event.subject)] : [];
      });
      if (!turns.length) return;
      const taken = Promise.all(
        turns.map((turn) => turn.catch((error) => this.logger.error({ err: error, project: projectId }, 'a bot could not take its turn'))),
      );
      let timer: NodeJS.Timeout | undefined;
      const settled = Promise.race([taken, new Promise<void>((resolve) => (timer = setTimeout(resolve, turnWaitMs)))]).then(() => clearTimeout(timer));
      return { settled };
    },
  };

  /**
   * The requests of `messages` that bots take part in, each with the sequence numbers of the
   * events (from the first message's on) in which bots joined it; one statement.
   */
  private async botsJoinedSince(projectId: string, messages: LoggedEvent[]) {
    const requests = [...new Set(messages.map((e) => String(e.payload.request_id)))];
    const rows = await this.db.$queryRaw<Array<{ request_id: string; updates: Array<{ seq: number; payload: Record<string, unknown> }> | null }>>`
      SELECT r."request_id", (
          SELECT json_agg(json_build_object('seq', e."seq", 'payload', e."payload")) FROM "DomainEvent" e
          WHERE e."id_project" = r."id_project" AND e."seq" > ${messages[0].seq} AND e."name" = 'request.update'
            AND e."payload"->>'request_id' = r."request_id" AND e."payload" ? 'added'
        ) AS "updates"
      FROM "Request" r
      WHERE r."id_project" = ${projectId} AND r."request_id" = ANY(${requests}) AND cardinality(r."participatingBots") > 0`;
    const joins = new Map<string, number[]>();
    for (const row of rows) {
      const updates = (row.updates ?? []).map((u) => ({ name: 'request.update', seq: Number(u.seq), payload: u.payload }) as LoggedEvent);
      joins.set(row.request_id, updates.filter((u) => botsJoining(u).length).map((u) => u.seq));
    }
    return joins;
  }

  /** Run beside the workers: on shutdown, the turns in progress finish first. */
  backgroundTask(): BackgroundTask {
    return periodicSweep({
      name: 'bots',
      intervalMs: this.sweepSettings.sweepIntervalMs,
      sweep: () => this.sweep(),
      logger: this.logger,
      failure: 'bot sweep failed',
      stopped: () => Promise.allSettled([...this.turns.values()]),
    });
  }

  /**
   * Answers the visitors' messages the live path never took its turn on: the process that
   * committed one died before its bot answered. A message is due when it is the last word of a
   * request a bot takes part in, from its end user, older than the grace (a live turn may still be
   * under way on another node) and younger than the window, with no turn recorded (BotTurn). The
   * turn itself checks again, so a message answered just before a crash is not answered twice.
   */
  async sweep(): Promise<number> {
    try {
      const now = Date.now();
      const from = new Date(now - this.sweepSettings.sweepWindowMs);
      const until = new Date(now - this.sweepSettings.sweepGraceMs);
      // From the projects with bots, through the messages' (project, time) index.
      const due = await this.db.$queryRaw<Array<{ projectId: string; requestId: string; messageId: string }>>`
        SELECT m."id_project" AS "projectId", m."request_id" AS "requestId", m."id" AS "messageId"
        FROM (SELECT DISTINCT "id_project" FROM "Bot" WHERE "trashed" = false) b
        JOIN "Message" m ON m."id_project" = b."id_project" AND m."createdAt" > ${from} AND m."createdAt" <= ${until}
        JOIN "Request" r ON r."id_project" = m."id_project" AND r."request_id" = m."request_id"
        WHERE cardinality(r."participatingBots") > 0 AND ${botAnswersSql}
          AND NOT EXISTS (SELECT 1 FROM "BotTurn" t WHERE t."messageId" = m."id")
          AND NOT EXISTS (
            SELECT 1 FROM "Message" later
            WHERE later."id_project" = m."id_project" AND later."request_id" = m."request_id"
              AND later."hidden" = false AND later."createdAt" > m."createdAt")
        ORDER BY m."createdAt", m."id"
        LIMIT 500`;
      for (const { projectId, requestId, messageId } of due) {
        this.logger.info({ project: projectId, request: requestId, message: messageId }, 'bot sweep: answering a message left without its turn');
        await this.onMessageCreated(projectId, requestId, messageId, { recovering: true }).catch((error) =>
          this.logger.error({ err: error, message: messageId }, 'a bot could not answer a message'),
        );
      }
      return due.length;
    } catch (error) {
      this.logger.error({ err: error }, 'bot sweep failed');
      return 0;
    }
  }

  /**
   * A message was created in request `requestId`: the bots taking part answer it, unless it is
   * hidden, from a bot, or from anyone but the end user who opened the request (agents included).
   */
  onMessageCreated(projectId: string, requestId: string, messageId: string, { recovering = false } = {}): Promise<void> {
    return this.inTurn(projectId, requestId, () => this.answer(projectId, requestId, messageId, recovering));
  }

  /**
   * Bots joined request `requestId` while it was under way: each greets (its start intent), then
   * answers the end user's last message on its merits when nobody answered it yet, as it would
   * have had it been there. The turn is recorded under the id of the event that says they joined
   * (`joinId`), so reading that event again greets no one twice.
   */
  onBotsJoined(projectId: string, requestId: string, botIds: string[], joinId: string): Promise<void> {
    return this.inTurn(projectId, requestId, async () => {
      if (await this.db.botTurn.findUnique({ where: { messageId: joinId }, select: { messageId: true } })) return;
      await this.welcome(projectId, requestId, botIds);
      await this.db.botTurn.createMany({ data: [{ messageId: joinId, id_project: projectId }], skipDuplicates: true });
    });
  }

  /** Runs `work` after the request's turns in progress: a conversation's turns are taken in order. */
  private inTurn(projectId: string, requestId: string, work: () => Promise<void>): Promise<void> {
    const key = `${projectId}:${requestId}`;
    const turn = (this.turns.get(key) ?? Promise.resolve()).then(work);
    const settled = turn.catch(() => {}).finally(() => {
      if (this.turns.get(key) === settled) this.turns.delete(key);
    });
    this.turns.set(key, settled);
    return turn;
  }

  private async welcome(projectId: string, requestId: string, botIds: string[]) {
    const request = await this.db.request.findUnique({
      where: { id_project_request_id: { id_project: projectId, request_id: requestId } },
    });
    const present = botIds.filter((id) => request?.participatingBots.includes(id));
    if (!request || !present.length || !isOpen(request.status)) return;
    const [requester, latest, bots] = await Promise.all([
      this.conversations.requests.requesterUserId(this.db, request),
      this.db.message.findMany({
        where: { id_project: projectId, request_id: requestId, hidden: false },
        orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
        take: 20,
      }),
      this.db.bot.findMany({ where: { id: { in: present }, id_project: projectId, trashed: false } }),
    ]);
    // The last word (notices for the agents aside): unanswered when it is the end user's.
    const last = latest.find((m) => !isHidden(attributesOf(m.attributes)));
    const unanswered = last && last.sender === requester ? last : null;
    for (const bot of bots) {
      if (bot.type === 'external') {
        if (unanswered) await this.queue.enqueue(externalBotJob, { projectId, botId: bot.id, messageId: unanswered.id }, { jobId: `${bot.id}-${unanswered.id}` });
        continue;
      }
      const actor: Actor = { userId: botSender(bot.id), fullname: bot.name, member: null };
      const index = await this.intentsOf(bot);
      const greeting = await respond(index, { text: startCommand, first: true, pending: null, parameters: chatbotParameters(request.attributes) });
      for (const reply of greeting.replies) await this.post(request, actor, null, reply);
      if (unanswered) await this.answerAsInternal(bot, request, unanswered, [], { first: false });
    }
    // Answered: the sweep leaves it alone.
    if (unanswered) await this.db.botTurn.createMany({ data: [{ messageId: unanswered.id, id_project: projectId }], skipDuplicates: true });
  }

  private intentsOf(bot: Bot) {
    return this.indexes.get(bot.id, bot.v, () => this.db.intent.findMany({ where: { id_faq_kb: bot.id } }));
  }

  /**
   * Takes the bots' turn on a message, then records it (BotTurn), whatever the turn did, so the
   * sweep leaves the message alone. `recovering` (from the sweep): the turn is taken only if
   * nobody took it, nor posted an answer to it before dying.
   */
  private async answer(projectId: string, requestId: string, messageId: string, recovering: boolean) {
    // Two rounds of reads: the request (most have no bot: one read and done), then the rest together.
    const request = await this.db.request.findUnique({
      where: { id_project_request_id: { id_project: projectId, request_id: requestId } },
    });
    if (!request || !request.participatingBots.length) return;
    // A turn job run again (its events read again after a crash) finds the turn recorded.
    if (await this.turnTaken(projectId, messageId, { lookForReplies: recovering })) return;
    if (isOpen(request.status)) await this.takeTurn(request, projectId, requestId, messageId);
    await this.db.botTurn.createMany({ data: [{ messageId, id_project: projectId }], skipDuplicates: true });
  }

  /** Whether a turn on the message was recorded; `lookForReplies`: or a bot answered it (a turn that died before its record). */
  private async turnTaken(projectId: string, messageId: string, { lookForReplies }: { lookForReplies: boolean }) {
    const [turn, reply] = await Promise.all([
      this.db.botTurn.findUnique({ where: { messageId }, select: { messageId: true } }),
      lookForReplies
        ? this.db.message.findFirst({
            where: { id_project: projectId, sender: { startsWith: botSenderPrefix }, attributes: { path: ['inReplyTo'], equals: messageId } },
            select: { id: true },
          })
        : null,
    ]);
    return !!turn || !!reply;
  }

  private async takeTurn(request: Request, projectId: string, requestId: string, messageId: string) {
    const [message, requester, bots, recent] = await Promise.all([
      this.db.message.findFirst({ where: { id: messageId, id_project: projectId, request_id: requestId } }),
      this.conversations.requests.requesterUserId(this.db, request),
      this.db.bot.findMany({ where: { id: { in: request.participatingBots }, id_project: projectId, trashed: false } }),
      // The bots' latest messages, newest first: enough to tell a first turn, a form in progress and a loop.
      this.db.message.findMany({
        where: { id_project: projectId, request_id: requestId, sender: { in: request.participatingBots.map(botSender) } },
        orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
        take: loopGuard.maxMessages * request.participatingBots.length,
        select: { sender: true, createdAt: true, attributes: true },
      }),
    ]);
    if (!message || !botAnswers(message)) return;
    if (message.sender !== requester) return;
    // The bot and a human never talk over each other: once a teammate takes part or writes, the
    // bot is silent until the conversation is handed back to it (the teammates leave and a bot
    // speaks again, or joins anew).
    if (await this.humanHasIt(request, requester, recent[0]?.createdAt ?? null)) return;
    // Answered already by a turn that died before its record (the events read again after a crash).
    if (recent.some((m) => attributesOf(m.attributes).inReplyTo === messageId)) return;
    for (const bot of bots) {
      if (bot.type === 'external') {
        await this.queue.enqueue(externalBotJob, { projectId, botId: bot.id, messageId }, { jobId: `${bot.id}-${messageId}` });
      } else {
        const own = recent.filter((m) => m.sender === botSender(bot.id)).slice(0, loopGuard.maxMessages);
        await this.answerAsInternal(bot, request, message, own);
      }
    }
  }

  /** Whether a teammate takes part in the request, or wrote in it since the bots last spoke. */
  private async humanHasIt(request: Request, requester: string | null, botsLastSpoke: Date | null): Promise<boolean> {
    if (request.participatingAgents.length) return true;
    const written = await this.db.message.findFirst({
      where: {
        id_project: request.id_project,
        request_id: request.request_id,
        // A note between teammates (hidden from the visitor) is not talking to the visitor.
        hidden: false,
        NOT: [{ sender: { startsWith: botSenderPrefix } }, { sender: 'system' }, ...(requester ? [{ sender: requester }] : [])],
        ...(botsLastSpoke ? { createdAt: { gt: botsLastSpoke } } : {}),
      },
      select: { attributes: true },
      orderBy: { createdAt: 'desc' },
    });
    return !!written && attributesOf(written.attributes).subtype !== 'info';
  }

  /** `first`: whether the bot has not spoken in the request yet (by default, when it has no recent message). */
  private async answerAsInternal(bot: Bot, request: Request, message: Message, recent: RecentMessage[], { first = !recent.length } = {}) {
    const actor: Actor = { userId: botSender(bot.id), fullname: bot.name, member: null };
    if (await this.loopGuardTripped(request, actor, message, recent)) return;
    const index = await this.intentsOf(bot);
    const parameters = chatbotParameters(request.attributes);
    const knowledge = this.qa && knowledgeAnswer(this.qa, bot, this.logger, { bus: this.bus, requestId: request.request_id });
    const turn = await respond(index, { text: message.text, first, pending: pendingForm(recent[0]?.attributes), parameters }, knowledge);
    if (turn.parameters) await this.storeParameters(request, actor, turn.parameters);
    for (const reply of turn.replies) await this.post(request, actor, message, reply);
    if (turn.priority) await this.setPriority(request, actor, turn.priority);
    if (turn.action === 'agent') await this.handOff(request, actor, message);
    if (turn.action === 'close') await this.close(request, actor);
  }

  /** A bot message; `inReplyTo` tells clients which end-user message it answers (a greeting answers none). */
  private post(request: Request, actor: Actor, message: Message | null, reply: BotReply) {
    return this.conversations.messages.post(request.id_project, actor, request.request_id, {
      text: reply.text,
      // Intent answers are written in the microlanguage (buttons, images, \split): expanded unless the
      // reply says otherwise (a knowledge-base passage is quoted as it is).
      attributes: { microlanguage: true, ...reply.attributes, ...(message ? { inReplyTo: message.id } : {}) },
    });
  }

  /** Too many messages from the bot in the window: one hidden notice for the agents, then silence. */
  private async loopGuardTripped(request: Request, actor: Actor, message: Message, recent: RecentMessage[]) {
    const since = Date.now() - loopGuard.windowMs;
    const inWindow = recent.filter((m) => m.createdAt.getTime() >= since);
    if (inWindow.length < loopGuard.maxMessages) return false;
    if (attributesOf(inWindow[0].attributes).loopGuard === true) return true;
    this.logger.warn({ bot: actor.userId, request: request.request_id }, 'bot loop guard: the bot stops answering this request');
    await this.post(request, actor, message, { text: loopGuardNotice, attributes: { subtype: 'info', loopGuard: true } });
    return true;
  }

  /** Through the same change as an agent's edit: the request.update event and the timeline record it. */
  private setPriority(request: Request, actor: Actor, priority: string) {
    return this.conversations.requests.change(
      request.id_project,
      request.request_id,
      null,
      async (_tx, current) => (current.priority === priority ? null : { data: { priority }, fields: ['priority'] }),
      actor.userId,
    );
  }

  private storeParameters(request: Request, actor: Actor, values: Record<string, string>) {
    return this.conversations.requests.change(
      request.id_project,
      request.request_id,
      null,
      async (_tx, current) => ({ data: { attributes: withChatbotParameters(current.attributes, values) as object }, fields: ['attributes'] }),
      actor.userId,
    );
  }

  /**
   * The bot leaves and the request goes to the department's human agents; with nobody
   * available it waits UNSERVED and the end user is told (the department's offline message).
   */
  private async handOff(request: Request, actor: Actor, message: Message) {
    const department = await this.conversations.routing.department(this.db, request.id_project, request.departmentId);
    if (!department) {
      this.logger.warn({ request: request.request_id }, 'bot hand-off without any department: the bot stays');
      return;
    }
    const routed = await this.conversations.assignments.route(request.id_project, actor, request.request_id, {
      departmentid: department.id,
      nobot: true,
    });
    if (routed.status === RequestStatus.UNSERVED && routed.assignment_reason === 'no_agent_available') {
      await this.post(request, actor, message, { text: department.offline_msg || noAgentMessage, attributes: {} });
    }
  }

  private close(request: Request, actor: Actor) {
    const { requests } = this.conversations;
    return requests.change(
      request.id_project,
      request.request_id,
      null,
      (tx, current) => (isOpen(current.status) ? requests.closing(tx, current, actor.userId) : Promise.resolve(null)),
      actor.userId,
    );
  }
}
