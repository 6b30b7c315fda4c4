import type { Db } from '../../infra/database.js';
import type { EventConsumer, EventWork } from '../../infra/event-consumers.js';
import type { LoggedEvent } from '../../infra/event-log.js';
import { eventPayload } from '../../events.js';
import type { Example, HistoryStore } from './history.js';
import { authorOf } from './service.js';

// The assistant learns as conversations close: a consumer of the event log (infra/event-consumers.ts)
// reads each request.close, takes what the visitor asked before an agent first answered, that
// answer, and the tags on the request, and stores them as the project's history in the
// transaction that moves its cursor (a crash reads the close again; learning it twice replaces it).
// Each example keeps the sequence of its close, so the knowledge gaps (gaps.ts), which read the
// same closes at their own pace, can see the history as it was at a gap's own close.

/** How long the knowledge gaps wait for the history to learn their closes before reading them again. */
const learnedWithinMs = 60_000;

export class HistoryLearner implements EventConsumer {
  readonly name = 'assistant-history';

  constructor(
    private db: Db,
    private history: HistoryStore,
  ) {}

  wants(event: LoggedEvent) {
    return event.name === 'request.close';
  }

  async handle(projectId: string, events: LoggedEvent[]): Promise<EventWork | void> {
    const examples = await this.examplesOf(projectId, closedIn(events));
    if (!examples.length) return;
    return { write: (tx) => this.history.learn(tx, projectId, examples) };
  }

  /** Resolves once the project's closes up to event `seq` are learned (its cursor passed them). */
  async learned(projectId: string, seq: bigint): Promise<void> {
    const deadline = Date.now() + learnedWithinMs;
    for (;;) {
      const cursor = await this.db.eventCursor.findUnique({
        where: { consumer_id_project: { consumer: this.name, id_project: projectId } },
        select: { seq: true },
      });
      if (cursor && cursor.seq >= seq) return;
      if (Date.now() > deadline) throw new Error(`the history had not learned the closes up to ${seq} after ${learnedWithinMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  /**
   * For each closed conversation of `closes` (request_id to its close's sequence), in that order,
   * what the visitor asked before an agent first answered, and that answer; none for those no
   * agent answered. Three reads for the whole batch, however many conversations: at 50 closes a
   * second, three reads each kept the learner (with the knowledge gaps, which read the same)
   * behind the closes.
   */
  async examplesOf(projectId: string, closes: Map<string, bigint>): Promise<Example[]> {
    const requestIds = [...closes.keys()];
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
      if (example) examples.push({ ...example, seq: closes.get(request.request_id) });
    }
    return examples;
  }
}

/** The request_ids of the closes among `events`, in the order they closed, each with the sequence of its last close. */
export function closedIn(events: LoggedEvent[]): Map<string, bigint> {
  const closes = new Map<string, bigint>();
  for (const event of events) {
    const requestId = eventPayload(event as LoggedEvent & { name: 'request.close' })?.request_id;
    if (!requestId) continue;
    closes.delete(requestId);
    closes.set(requestId, BigInt(event.seq));
  }
  return closes;
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
