import { z } from 'zod';
import { jobType } from '../../infra/job-queue.js';

// The bot engine's job: one end-user message POSTed to an external bot's engine (identifiers only).

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
