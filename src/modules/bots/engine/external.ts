import type { Config } from '../../../config.js';
import type { Message } from '../../../generated/prisma/client.js';
import type { Db } from '../../../infra/database.js';
import type { LoggedEvent } from '../../../infra/event-log.js';
import { PermanentJobError } from '../../../infra/job-queue.js';
import { OutboundRefusedError, safeFetch } from '../../../infra/outbound.js';
import { catalogueEntry, type RenderTools } from '../../webhooks/catalogue.js';
import { signedHeaders } from '../../webhooks/signature.js';
import { signBotToken } from '../../auth/bot-identity.js';
import type { ExternalJob } from '../jobs.js';

// POSTs one end-user message to an external bot's engine, signed as webhooks are (Standard
// Webhooks, with the bot's secret), with the outbound safety rules. The body carries a token
// for the bot: the engine answers by calling the REST API with it.

/** Answers that retrying cannot change (a timeout, a rate limit or a server error may). */
const isPermanent = (status: number) => status >= 400 && status < 500 && ![408, 425, 429].includes(status);

/** The message as the `message.create` webhook shows it (with its request), rendered by the same code. */
async function messagePayload(message: Message, tools: RenderTools) {
  const event: LoggedEvent = {
    id: message.id,
    projectId: message.id_project,
    seq: 0,
    name: 'message.create',
    subject: message.id,
    payload: {},
    createdAt: message.createdAt.toISOString(),
  };
  return (await catalogueEntry(event.name)!.render([event], tools)).get(event.id);
}

export class ExternalBotSender {
  constructor(
    private db: Db,
    private config: Config,
    private tools: () => RenderTools,
  ) {}

  async deliver(job: ExternalJob) {
    const bot = await this.db.bot.findFirst({ where: { id: job.botId, id_project: job.projectId, trashed: false } });
    // Deleted, or no longer external, since the message came: nobody to tell.
    if (!bot || bot.type !== 'external' || !bot.url) return;
    const message = await this.db.message.findFirst({ where: { id: job.messageId, id_project: job.projectId } });
    if (!message) return;
    const tools = this.tools();
    const body = JSON.stringify({
      timestamp: message.createdAt.getTime(),
      payload: await messagePayload(message, tools),
      hook: await tools.records.render('Bot', bot),
      token: `JWT ${signBotToken(bot, this.config.jwtExpiresInSeconds)}`,
    });
    // The same webhook-id on every attempt, so the engine can drop a repeat.
    const signature = signedHeaders([bot.secret], `${bot.id}-${message.id}`, Math.floor(Date.now() / 1000), body);
    let status: number;
    try {
      const response = await safeFetch(
        bot.url,
        {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...signature },
          body,
          timeoutMs: this.config.webhooks.timeoutMs,
          maxResponseBytes: 4096,
        },
        this.config.outbound,
      );
      status = response.status;
    } catch (error) {
      if (error instanceof OutboundRefusedError) throw new PermanentJobError(`bot ${bot.id}: ${error.message}`);
      throw error;
    }
    if (status >= 200 && status < 300) return;
    const failure = `bot ${bot.id}: the engine at its url answered ${status}`;
    throw isPermanent(status) ? new PermanentJobError(failure) : new Error(failure);
  }
}
