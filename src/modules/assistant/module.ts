import { defineModule } from '../../module.js';
import { routes } from './schema.js';
import { routes as routes2 } from './proposals-schema.js';
import { assistantEvents } from './events.js';
import { KnowledgeGaps } from './gaps.js';
import { AutoTagger } from './auto-tag.js';
import { HandOverSummaries } from './handover.js';
import { AssistantService } from './service.js';
import { ReplyDrafter } from './draft.js';
import { SummaryService } from './summaries.js';
import { ProposalService } from './proposals.js';
import { HistoryLearner } from './learner.js';

declare module '../../module.js' {
  interface ServiceRegistry {
    assistant: AssistantService;
    assistantSummaries: SummaryService;
    proposals: ProposalService;
    historyLearner: HistoryLearner;
  }
}

export default defineModule({
  name: 'assistant',
  services: {
    assistant: (s, { db, infra }) => new AssistantService(db, s.kb, s.requests, s.chatAnswerer ? new ReplyDrafter(s.chatAnswerer, infra.logger) : null),
    assistantSummaries: (s, { db, infra }) => new SummaryService(db, infra.eventLog, s.requests, s.kb, s.chatAnswerer, infra.logger),
    proposals: (s, { db, infra }) => new ProposalService(db, infra.eventLog, s.kb, s.assistant.history, infra.logger),
    historyLearner: (s, { db }) => new HistoryLearner(db, s.assistant.history),
  },
  routes: { ...routes, ...routes2 },
  events: assistantEvents,
  // The assistant learns from each closed conversation, proposes what the knowledge base could
  // not answer, tags the first visitor messages when the project asks it to, and summarises each hand-over.
  listeners: (services) => {
    const db = services.infra.database.prisma;
    const { logger } = services.infra;
    return [
      services.historyLearner,
      new KnowledgeGaps(services.historyLearner, services.assistant, services.proposals, logger),
      new AutoTagger(db, services.requests, services.assistant, logger),
      new HandOverSummaries(db, services.assistantSummaries, logger),
    ];
  },
});
