import type { EventConsumer, EventWork } from '../../infra/event-consumers.js';
import type { LoggedEvent } from '../../infra/event-log.js';
import type { Logger } from '../../infra/logger.js';
import { closedIn, type HistoryLearner } from './learner.js';
import type { Gap, ProposalService } from './proposals.js';
import type { AssistantService } from './service.js';

// The knowledge loop's listener: each conversation that closes with a visitor's question an agent
// answered (the example the history learns, learner.ts) is a gap when the project's knowledge base
// does not answer that question (its retrieval, with what agents taught it, passes none of the
// abstention floors of /kb/qa: the bot abstained, or would have). Gaps are filed as proposals
// (proposals.ts) in the transaction that moves this consumer's cursor, project by project, in the
// order they closed. A gap is clustered with the history's document frequencies as they were at
// its own close: its batch is filed once the history has learned the batch's closes, and what the
// history learned from later closes is taken off (each example keeps its close's sequence). It
// reads the closes at its own pace (a knowledge-base search each), so the history's learning,
// which suggestions read, never waits for it.

export class KnowledgeGaps implements EventConsumer {
  readonly name = 'assistant-gaps';
  /** A knowledge-base search per close: a few at a time, so the history learner is not held behind them. */
  readonly batchSize = 25;

  constructor(
    private learner: HistoryLearner,
    private assistant: AssistantService,
    private proposals: ProposalService,
    private logger: Logger,
  ) {}

  wants(event: LoggedEvent) {
    return event.name === 'request.close';
  }

  async handle(projectId: string, events: LoggedEvent[]): Promise<EventWork | void> {
    const closes = closedIn(events);
    const examples = await this.learner.examplesOf(projectId, closes);
    if (!examples.length) return;
    // Resolved once for the batch (a failure reads the batch again).
    const namespace = await this.assistant.defaultKnowledgeBase(projectId);
    const gaps: Gap[] = [];
    for (const example of examples) {
      try {
        if (!(await this.assistant.knowledgeBaseAnswers(projectId, namespace, example.question))) {
          gaps.push({ request_id: example.request_id, namespace, question: example.question, answer: example.answer, seq: example.seq });
        }
      } catch (error) {
        this.logger.warn({ err: error, projectId, requestId: example.request_id }, 'assistant: a closed conversation could not be read for knowledge gaps');
      }
    }
    if (!gaps.length) return;
    const last = [...closes.values()].reduce((a, b) => (a > b ? a : b));
    return {
      settled: this.learner.learned(projectId, last),
      write: (tx) => this.proposals.file(tx, projectId, gaps),
    };
  }
}
