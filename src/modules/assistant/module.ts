import { defineModule } from '../../module.js';
import { routes } from './schema.js';
import { routes as routes2 } from './proposals-schema.js';
import { assistantEvents } from './events.js';
import { KnowledgeGaps } from './gaps.js';
import { AutoTagger } from './auto-tag.js';
import { HandOverSummaries } from './handover.js';

export default defineModule({
  name: 'assistant',
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
