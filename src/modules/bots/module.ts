import { defineModule } from '../../module.js';
import { routes, aliases } from './schema.js';
import { botsEvents } from './events.js';
import { externalAttempts, externalBotJob } from './jobs.js';

export default defineModule({
  name: 'bots',
  routes,
  aliases,
  tags: [
    { name: 'Bots', description: 'Bots and their intents (FAQ).', segments: ['bots', 'faq_kb', 'faq'] },
  ],
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
