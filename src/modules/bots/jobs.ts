import { z } from 'zod';

// The bot engine's job: one end-user message POSTed to an external bot's engine (identifiers only).

export const externalBotJob = 'bots.external';

export const externalJobData = z.object({
  projectId: z.string().min(1),
  botId: z.string().min(1),
  messageId: z.string().min(1),
});
export type ExternalJob = z.infer<typeof externalJobData>;

/** An external bot's engine gets this many tries for one message (timeouts, 5xx, 429). */
export const externalAttempts = 5;
