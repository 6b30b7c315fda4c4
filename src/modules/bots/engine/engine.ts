import type { Bot, Message, Request } from '../../../generated/prisma/client.js';
import type { Db } from '../../../infra/database.js';
import type { LoggedEvent } from '../../../infra/event-log.js';
import type { Infrastructure } from '../../../infra/index.js';
import type { BackgroundTask, JobQueue } from '../../../infra/job-queue.js';
import type { Logger } from '../../../infra/logger.js';
import type { Services } from '../../../services.js';
import { payloadContext, RecordRenderer } from '../../webhooks/render.js';
import { isHidden, type MessageService } from '../../messages/service.js';
import type { Actor } from '../../requests/actor.js';
import type { RequestService } from '../../requests/service.js';
import { isOpen, RequestStatus } from '../../requests/states.js';
import type { AssignmentService } from '../../routing/assignment.js';
import type { RoutingService } from '../../routing/service.js';
import { botSender, isBotSender } from '../identity.js';
import { externalBotJob } from '../jobs.js';
import { chatbotParameters, withChatbotParameters } from '../parameters.js';
import { pendingForm, respond, type BotReply } from './dialog.js';
import { ExternalBotSender } from './external.js';
import { IntentIndexCache } from './matcher.js';

// Bots answer end-user messages in the requests they take part in. Each message.create is seen
// here once, in the process that committed it (EventLog.onCommit): no bus hop or job on the way
// to the answer, and no second answer from another node. An internal bot answers here from its
// intents; an external bot gets the message POSTed to its engine by a job (external.ts).

export interface ConversationServices {
  requests: RequestService;
  messages: MessageService;
  assignments: AssignmentService;
  routing: RoutingService;
}

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

/** Events that may need a bot's answer; the rest is known from the rows. */
const mayNeedAnswer = (event: LoggedEvent) =>
  event.name === 'message.create' &&
  typeof event.payload.request_id === 'string' &&
  event.payload.hidden !== true &&
  !isBotSender(String(event.payload.sender ?? ''));

export class BotEngine {
  readonly external: ExternalBotSender;
  private renderer?: RecordRenderer;
  private db: Db;
  private queue: JobQueue;
  private logger: Logger;
  private indexes = new IntentIndexCache();
  /** Per request, the turn in progress: messages of one conversation are answered in order. */
  private turns = new Map<string, Promise<void>>();

  constructor(
    infra: Infrastructure,
    private conversations: ConversationServices,
  ) {
    this.db = infra.database.prisma;
    this.queue = infra.queue;
    this.logger = infra.logger;
    infra.eventLog.onCommit((event) => {
      if (!mayNeedAnswer(event)) return;
      // Written while no bot took part in the request: nothing to answer, and nothing to read to know it.
      if (this.conversations.messages.writtenWithoutBots(event)) return;
      this.onMessageCreated(event.projectId, String(event.payload.request_id), event.subject).catch((error) =>
        this.logger.error({ err: error, message: event.subject }, 'a bot could not answer a message'),
      );
    });
    this.external = new ExternalBotSender(this.db, infra.config, () => {
      if (!this.renderer) throw new Error('external bots are served only once their task has started');
      return { db: this.db, records: this.renderer };
    });
  }

  /**
   * Run beside the workers: external deliveries render their payloads through the whole service
   * set; on shutdown, the turns in progress finish first.
   */
  backgroundTask(services: Services): BackgroundTask {
    return {
      name: 'bots',
      start: async () => {
        // Imported here: the schema imports every module, this one included.
        const { schema } = await import('../../../graphql/schema.js');
        this.renderer = new RecordRenderer(() => schema, () => payloadContext(services));
        return async () => {
          await Promise.allSettled([...this.turns.values()]);
        };
      },
    };
  }

  /**
   * A message was created in request `requestId`: the bots taking part answer it, unless it is
   * hidden, from a bot, or from anyone but the end user who opened the request (agents included).
   */
  onMessageCreated(projectId: string, requestId: string, messageId: string): Promise<void> {
    const key = `${projectId}:${requestId}`;
    const turn = (this.turns.get(key) ?? Promise.resolve()).then(() => this.answer(projectId, requestId, messageId));
    const settled = turn.catch(() => {}).finally(() => {
      if (this.turns.get(key) === settled) this.turns.delete(key);
    });
    this.turns.set(key, settled);
    return turn;
  }

  private async answer(projectId: string, requestId: string, messageId: string) {
    // Two rounds of reads: the request (most have no bot: one read and done), then the rest together.
    const request = await this.db.request.findUnique({
      where: { id_project_request_id: { id_project: projectId, request_id: requestId } },
    });
    if (!request || !request.participatingBots.length || !isOpen(request.status)) return;
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
    if (!message || message.hidden || isHidden(attributesOf(message.attributes)) || isBotSender(message.sender)) return;
    if (message.sender !== requester) return;
    for (const bot of bots) {
      if (bot.type === 'external') {
        await this.queue.enqueue(externalBotJob, { projectId, botId: bot.id, messageId }, { jobId: `${bot.id}-${messageId}` });
      } else {
        const own = recent.filter((m) => m.sender === botSender(bot.id)).slice(0, loopGuard.maxMessages);
        await this.answerAsInternal(bot, request, message, own);
      }
    }
  }

  private async answerAsInternal(bot: Bot, request: Request, message: Message, recent: RecentMessage[]) {
    const actor: Actor = { userId: botSender(bot.id), fullname: bot.name, member: null };
    if (await this.loopGuardTripped(request, actor, message, recent)) return;
    const index = await this.indexes.get(bot.id, bot.v, () => this.db.intent.findMany({ where: { id_faq_kb: bot.id } }));
    const parameters = chatbotParameters(request.attributes);
    const turn = respond(index, { text: message.text, first: !recent.length, pending: pendingForm(recent[0]?.attributes), parameters });
    if (turn.parameters) await this.storeParameters(request, turn.parameters);
    for (const reply of turn.replies) await this.post(request, actor, message, reply);
    if (turn.action === 'agent') await this.handOff(request, actor, message);
    if (turn.action === 'close') await this.close(request, actor);
  }

  /** A bot message; `inReplyTo` tells clients which end-user message it answers. */
  private post(request: Request, actor: Actor, message: Message, reply: BotReply) {
    return this.conversations.messages.post(request.id_project, actor, request.request_id, {
      text: reply.text,
      attributes: { ...reply.attributes, inReplyTo: message.id },
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

  private storeParameters(request: Request, values: Record<string, string>) {
    return this.conversations.requests.change(request.id_project, request.request_id, null, async (_tx, current) => ({
      data: { attributes: withChatbotParameters(current.attributes, values) as object },
      fields: ['attributes'],
    }));
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
    return requests.change(request.id_project, request.request_id, null, (tx, current) =>
      isOpen(current.status) ? requests.closing(tx, current, actor.userId) : Promise.resolve(null),
    );
  }
}
