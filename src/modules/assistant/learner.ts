import type { Db } from '../../infra/database.js';
import type { EventConsumer, EventWork } from '../../infra/event-consumers.js';
import type { LoggedEvent } from '../../infra/event-log.js';
import { eventPayload } from '../../events.js';
import type { KnowledgeGaps } from './gaps.js';
import type { Gap } from './proposals.js';
import type { Example, HistoryStore } from './history.js';
import { authorOf } from './service.js';

// The assistant learns as conversations close: a consumer of the event log (infra/event-consumers.ts)
// reads each request.close, takes what the visitor asked before an agent first answered, that
// answer, and the tags on the request, and stores them as the project's history in the
// transaction that moves its cursor (a crash reads the close again; learning it twice replaces it).
// In the same pass, close by close, the questions the knowledge base could not answer are filed as
// knowledge gaps (gaps.ts): a gap is clustered with the history's document frequencies as they
// were at its own close, whatever the timing, which two consumers reading the same closes at their
// own pace could not promise.

export class HistoryLearner implements EventConsumer {
  readonly name = 'assistant-history';
  /** A knowledge-base search per close for the gaps: a few dozen at a time, so the process's slot is held for a moment. */
  readonly batchSize = 50;

  constructor(
    private db: Db,
    private history: HistoryStore,
    private gaps?: KnowledgeGaps,
  ) {}

  wants(event: LoggedEvent) {
    return event.name === 'request.close';
  }

  async handle(projectId: string, events: LoggedEvent[]): Promise<EventWork | void> {
    const examples = await this.examplesOf(projectId, closedIn(events));
    if (!examples.length) return;
    const gaps = (await this.gaps?.of(projectId, examples)) ?? new Map<string, Gap>();
    return {
      write: async (tx) => {
        const moves = await this.history.learn(tx, projectId, examples);
        if (!gaps.size) return;
        // Each gap is clustered with the frequencies as they were once its own close was learned:
        // what the batch's later closes moved is taken off again.
        const filed: Gap[] = [];
        const learnedSince = new Map<string, number>();
        for (const example of [...examples].reverse()) {
          const gap = gaps.get(example.request_id);
          if (gap) filed.unshift({ ...gap, learnedSince: new Map(learnedSince) });
          for (const [term, by] of moves.get(example.request_id) ?? []) learnedSince.set(term, (learnedSince.get(term) ?? 0) + by);
        }
        await this.gaps!.file(tx, projectId, filed);
      },
    };
  }

  /**
   * For each conversation of `requestIds` (closed ones), what the visitor asked before an agent
   * first answered, and that answer, in the order of `requestIds`; none for those no agent answered. Three reads for the whole
   * batch, however many conversations: at 50 closes a second, three reads each kept the learner
   * (with the knowledge gaps, which read the same) behind the closes.
   */
  async examplesOf(projectId: string, requestIds: string[]): Promise<Example[]> {
    if (!requestIds.length) return [];
    const found = await this.db.request.findMany({
      where: { id_project: projectId, request_id: { in: requestIds } },
      select: { request_id: true, requester_id: true, tags: true },
    });
    // In the order they closed: the gaps are filed in that order.
    const byId = new Map(found.map((r) => [r.request_id, r]));
    const requests = requestIds.map((id) => byId.get(id)).filter((r) => r !== undefined);
    const requesterIds = [...new Set(requests.map((r) => r.requester_id).filter((id): id is string => !!id))];
    const requesters = requesterIds.length ? await this.db.projectUser.findMany({ where: { id: { in: requesterIds } }, select: { id: true, id_user: true } }) : [];
    const userOf = new Map(requesters.map((r) => [r.id, r.id_user]));
    // The first messages of each conversation, in order: the question and its answer are at its start.
    const messages = await this.db.$queryRaw<Array<{ request_id: string; sender: string; text: string; attributes: unknown }>>`
      SELECT m."request_id", m."sender", m."text", m."attributes" FROM (
        SELECT "request_id", "sender", "text", "attributes", "createdAt", "id",
          row_number() OVER (PARTITION BY "request_id" ORDER BY "createdAt", "id") AS "n"
        FROM "Message" WHERE "id_project" = ${projectId} AND "request_id" = ANY(${requests.map((r) => r.request_id)}::text[])
      ) m WHERE m."n" <= ${messagesRead} ORDER BY m."request_id", m."createdAt", m."id"`;
    const byRequest = new Map<string, typeof messages>();
    for (const message of messages) byRequest.set(message.request_id, [...(byRequest.get(message.request_id) ?? []), message]);
    const examples: Example[] = [];
    for (const request of requests) {
      const visitor = request.requester_id ? (userOf.get(request.requester_id) ?? null) : null;
      const example = exampleIn(request.request_id, byRequest.get(request.request_id) ?? [], visitor, request.tags);
      if (example) examples.push(example);
    }
    return examples;
  }
}

/** The request_ids of the closes among `events`, each once. */
export function closedIn(events: LoggedEvent[]): string[] {
  const ids = events.map((e) => eventPayload(e as LoggedEvent & { name: 'request.close' })?.request_id).filter((id): id is string => !!id);
  return [...new Set(ids)];
}

/** Messages of a conversation read from its start to find its question and answer. */
const messagesRead = 500;

function exampleIn(requestId: string, messages: Array<{ sender: string; text: string; attributes: unknown }>, visitor: string | null, requestTags: unknown): Example | null {
  const asked: string[] = [];
  const answered: string[] = [];
  for (const message of messages) {
    const author = authorOf(message, visitor);
    if (author === 'agent' && message.text.trim()) answered.push(message.text.trim());
    else if (answered.length) break;
    else if (author === 'visitor' && message.text.trim()) asked.push(message.text.trim());
  }
  if (!asked.length || !answered.length) return null;
  const tags = (Array.isArray(requestTags) ? requestTags : [])
    .map((t) => (t && typeof t === 'object' && 'tag' in t ? String((t as { tag: unknown }).tag) : null))
    .filter((t): t is string => !!t);
  return { request_id: requestId, question: asked.join('\n'), answer: answered.join('\n'), tags };
}
