import type { Db } from '../../infra/database.js';
import type { EventConsumer } from '../../infra/event-consumers.js';
import type { LoggedEvent } from '../../infra/event-log.js';
import type { Logger } from '../../infra/logger.js';
import { isBotSender } from '../auth/bot-identity.js';
import type { SummaryService } from './summaries.js';

// When a bot hands a conversation over (a request.update in which a bot leaves), the agent who
// takes it should not have to read the bot's whole conversation: a consumer of the event log sums
// it up (summaries.ts). Run again after a crash, it makes the summary again, replacing the first.

/** Whether a request.update is a bot leaving the conversation. */
export function isHandOver(event: LoggedEvent): boolean {
  if (event.name !== 'request.update') return false;
  const removed = event.payload.removed;
  return Array.isArray(removed) && removed.some((id) => typeof id === 'string' && isBotSender(id));
}

export class HandOverSummaries implements EventConsumer {
  readonly name = 'assistant-handover';

  constructor(
    private db: Db,
    private summaries: SummaryService,
    private logger: Logger,
  ) {}

  wants(event: LoggedEvent) {
    return isHandOver(event);
  }

  async handle(projectId: string, events: LoggedEvent[]): Promise<void> {
    for (const requestId of new Set(events.map((e) => String(e.payload.request_id ?? '')).filter(Boolean))) {
      try {
        const request = await this.db.request.findUnique({ where: { id_project_request_id: { id_project: projectId, request_id: requestId } } });
        if (request) await this.summaries.make(request, null);
      } catch (error) {
        this.logger.warn({ err: error, projectId, requestId }, 'assistant: the hand-over summary could not be made');
      }
    }
  }
}
