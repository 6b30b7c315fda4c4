import type { Db } from '../../infra/database.js';
import type { EventConsumer } from '../../infra/event-consumers.js';
import type { LoggedEvent } from '../../infra/event-log.js';
import type { Logger } from '../../infra/logger.js';
import { RequestStatus } from '../requests/states.js';
import type { RequestService } from '../requests/service.js';
import { authorOf, type AssistantService } from './service.js';

// Triage that applies itself: with the project setting `assistant.auto_tag_threshold` (0 to 1),
// the top suggested tag (the tags agents put on the nearest closed conversations, with their share
// of the votes) is put on a conversation when its score reaches the threshold. It reads the
// visitor's first messages: until a teammate writes, or the request has a tag (auto or not), each
// new message is read again with those before it. A consumer of the event log, so no visitor waits.

/** The project's threshold, or null when auto-tagging is off (unset, or not a number from 0 to 1). */
export function autoTagThreshold(settings: unknown): number | null {
  const assistant = (settings && typeof settings === 'object' ? (settings as Record<string, unknown>).assistant : null) as Record<string, unknown> | null;
  const value = assistant && typeof assistant === 'object' ? assistant.auto_tag_threshold : null;
  return typeof value === 'number' && value >= 0 && value <= 1 ? value : null;
}

export class AutoTagger implements EventConsumer {
  readonly name = 'assistant-auto-tag';

  constructor(
    private db: Db,
    private requests: RequestService,
    private assistant: AssistantService,
    private logger: Logger,
  ) {}

  wants(event: LoggedEvent) {
    return event.name === 'message.create' && typeof event.payload.request_id === 'string' && event.payload.hidden !== true;
  }

  async handle(projectId: string, events: LoggedEvent[]): Promise<void> {
    const project = await this.db.project.findUnique({ where: { id: projectId }, select: { settings: true } });
    const threshold = autoTagThreshold(project?.settings);
    if (threshold === null) return;
    for (const requestId of new Set(events.map((e) => String(e.payload.request_id)))) {
      try {
        await this.tag(projectId, requestId, threshold);
      } catch (error) {
        this.logger.warn({ err: error, projectId, requestId }, 'assistant: the suggested tag could not be applied');
      }
    }
  }

  private async tag(projectId: string, requestId: string, threshold: number) {
    const request = await this.db.request.findUnique({ where: { id_project_request_id: { id_project: projectId, request_id: requestId } } });
    if (!request || request.status === RequestStatus.CLOSED || hasTags(request.tags)) return;
    const visitor = await this.requests.requesterUserId(this.db, request);
    const messages = await this.db.message.findMany({
      where: { id_project: projectId, request_id: requestId },
      orderBy: { createdAt: 'asc' },
      select: { sender: true, text: true, attributes: true },
      take: 200,
    });
    const authors = messages.map((m) => ({ author: authorOf(m, visitor), text: m.text.trim() }));
    if (authors.some((m) => m.author === 'agent')) return;
    const question = authors.filter((m) => m.author === 'visitor' && m.text).map((m) => m.text).join('\n');
    if (!question) return;
    const [top] = await this.assistant.suggestedTags(projectId, question);
    if (!top || top.score < threshold) return;
    await this.requests.change(projectId, requestId, null, async (_tx, current) => {
      if (hasTags(current.tags) || current.status === RequestStatus.CLOSED) return null;
      return { data: { tags: [{ tag: top.tag, auto: true, score: top.score }] }, fields: ['tags'] };
    });
  }
}

const hasTags = (tags: unknown) => Array.isArray(tags) && tags.length > 0;
