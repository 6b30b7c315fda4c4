import type { Db } from '../../infra/database.js';
import type { EventConsumer, EventWork } from '../../infra/event-consumers.js';
import type { LoggedEvent } from '../../infra/event-log.js';
import type { Logger } from '../../infra/logger.js';
import { eventPayload } from '../../events.js';
import type { RequestService } from '../requests/service.js';
import type { Example, HistoryStore } from './history.js';
import { authorOf } from './service.js';

// The assistant learns as conversations close: a consumer of the event log (infra/event-consumers.ts)
// reads each request.close, takes what the visitor asked before an agent first answered, that
// answer, and the tags on the request, and stores them as the project's history in the
// transaction that moves its cursor (a crash reads the close again; learning it twice replaces it).

export class HistoryLearner implements EventConsumer {
  readonly name = 'assistant-history';

  constructor(
    private db: Db,
    private requests: RequestService,
    private history: HistoryStore,
    private logger: Logger,
  ) {}

  wants(event: LoggedEvent) {
    return event.name === 'request.close';
  }

  async handle(projectId: string, events: LoggedEvent[]): Promise<EventWork | void> {
    const examples: Example[] = [];
    const closed = events.map((e) => eventPayload(e as LoggedEvent & { name: 'request.close' })?.request_id).filter((id): id is string => !!id);
    for (const requestId of new Set(closed)) {
      try {
        const example = await this.exampleOf(projectId, requestId);
        if (example) examples.push(example);
      } catch (error) {
        this.logger.warn({ err: error, projectId, requestId }, 'assistant: a closed conversation could not be learned');
      }
    }
    if (!examples.length) return;
    return {
      write: async (tx) => {
        for (const example of examples) await this.history.learn(tx, projectId, example);
      },
    };
  }

  /** What the visitor asked before an agent first answered, and that answer; null when no agent answered. */
  async exampleOf(projectId: string, requestId: string): Promise<Example | null> {
    const request = await this.db.request.findUnique({ where: { id_project_request_id: { id_project: projectId, request_id: requestId } } });
    if (!request) return null;
    const visitor = await this.requests.requesterUserId(this.db, request);
    const messages = await this.db.message.findMany({
      where: { id_project: projectId, request_id: requestId },
      orderBy: { createdAt: 'asc' },
      select: { sender: true, text: true, attributes: true },
      take: 500,
    });
    const asked: string[] = [];
    const answered: string[] = [];
    for (const message of messages) {
      const author = authorOf(message, visitor);
      if (author === 'agent' && message.text.trim()) answered.push(message.text.trim());
      else if (answered.length) break;
      else if (author === 'visitor' && message.text.trim()) asked.push(message.text.trim());
    }
    if (!asked.length || !answered.length) return null;
    const tags = (Array.isArray(request.tags) ? request.tags : [])
      .map((t) => (t && typeof t === 'object' && 'tag' in t ? String((t as { tag: unknown }).tag) : null))
      .filter((t): t is string => !!t);
    return { request_id: requestId, question: asked.join('\n'), answer: answered.join('\n'), tags };
  }
}
