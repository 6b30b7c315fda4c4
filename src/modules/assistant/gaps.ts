import type { Tx } from '../../infra/database.js';
import type { Logger } from '../../infra/logger.js';
import type { Example } from './history.js';
import type { Gap, ProposalService } from './proposals.js';
import type { AssistantService } from './service.js';

// The knowledge loop's first step: each conversation that closes with a visitor's question an
// agent answered (the example the history learns, learner.ts) is a gap when the project's
// knowledge base does not answer that question (its retrieval, with what agents taught it, passes
// none of the abstention floors of /kb/qa: the bot abstained, or would have). The history learner
// files them as proposals (proposals.ts), in the order they closed, in the transaction that moves its cursor.

export class KnowledgeGaps {
  constructor(
    private assistant: AssistantService,
    private proposals: ProposalService,
    private logger: Logger,
  ) {}

  /** The gaps among `examples` (closed conversations of one project), by request_id. */
  async of(projectId: string, examples: Example[]): Promise<Map<string, Gap>> {
    const gaps = new Map<string, Gap>();
    if (!examples.length) return gaps;
    // Resolved once for the batch (a failure reads the batch again).
    const namespace = await this.assistant.defaultKnowledgeBase(projectId);
    for (const example of examples) {
      try {
        if (!(await this.assistant.knowledgeBaseAnswers(projectId, namespace, example.question))) {
          gaps.set(example.request_id, { request_id: example.request_id, namespace, question: example.question, answer: example.answer });
        }
      } catch (error) {
        this.logger.warn({ err: error, projectId, requestId: example.request_id }, 'assistant: a closed conversation could not be read for knowledge gaps');
      }
    }
    return gaps;
  }

  /** Files `gaps` of one project, in the order they closed. */
  file(tx: Tx, projectId: string, gaps: Gap[]) {
    return this.proposals.file(tx, projectId, gaps);
  }
}
