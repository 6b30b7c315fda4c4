import { defineModule } from '../../module.js';
import { routes, aliases } from './schema.js';
import { botsEvents } from './events.js';
import { externalAttempts, externalBotJob } from './jobs.js';
import { BotService } from './service.js';
import { IntentService } from './intents.js';
import { BotEngine } from './engine/engine.js';

declare module '../../module.js' {
  interface ServiceRegistry {
    bots: BotService;
    intents: IntentService;
    botEngine: BotEngine;
  }
}

export default defineModule({
  name: 'bots',
  services: {
    bots: (_s, { db, infra }) => new BotService(db, infra.eventLog, infra.config),
    intents: (_s, { db, infra }) => new IntentService(db, infra.eventLog),
    botEngine: (s, { infra }) => new BotEngine(infra, s, s.records, s.kb.qa),
  },
  routes,
  aliases,
  tags: [{ name: 'Bots', description: 'Bots and their intents (FAQ).', segments: ['bots', 'faq_kb', 'faq'] }],
  events: botsEvents,
  listeners: (services) => [services.botEngine.consumer],
  jobTypes: [externalBotJob],
  jobs: (queue, services) => {
    queue.define({
      job: externalBotJob,
      attempts: externalAttempts,
      concurrency: 16,
      process: (data) => services.botEngine.external.deliver(data),
    });
    // Renders what external bots receive; waits for the bots' turns in progress on shutdown.
    queue.runBeside(services.botEngine.backgroundTask());
  },
});
