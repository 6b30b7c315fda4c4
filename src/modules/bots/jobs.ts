import { z } from 'zod';

// The bot engine's jobs: names and the data each carries (identifiers only).

export const botJobs = {
  /** One created message, checked for bots to answer it. */
  answer: 'bots.answer',
  /** One end-user message POSTed to an external bot's engine. */
  external: 'bots.external',
} as const;

export const answerJobData = z.object({ projectId: z.string().min(1), requestId: z.string().min(1), messageId: z.string().min(1) });

export const externalJobData = z.object({
  projectId: z.string().min(1),
  botId: z.string().min(1),
  messageId: z.string().min(1),
});
export type ExternalJob = z.infer<typeof externalJobData>;

/** An external bot's engine gets this many tries for one message (timeouts, 5xx, 429). */
export const externalAttempts = 5;
