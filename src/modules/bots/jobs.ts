import { z } from 'zod';
import { jobType } from '../../infra/job-queue.js';

// The bot engine's jobs (identifiers only): the bots' turn on a message or on joining a conversation,
// and one end-user message POSTed to an external bot's engine.

export const externalBotJob = jobType(
  'bots.external',
  z.object({
    projectId: z.string().min(1),
    botId: z.string().min(1),
    messageId: z.string().min(1),
  }),
);
export type ExternalJob = z.infer<typeof externalBotJob.data>;

/** An external bot's engine gets this many tries for one message (timeouts, 5xx, 429). */
export const externalAttempts = 5;

/** The bots' turn: answering `messageId`, or greeting the conversation the bots `joined`. */
export const botTurnJob = jobType(
  'bots.turn',
  z.object({
    projectId: z.string().min(1),
    requestId: z.string().min(1),
    messageId: z.string().min(1).optional(),
    joined: z.array(z.string().min(1)).optional(),
  }),
);
export type BotTurnJob = z.infer<typeof botTurnJob.data>;
