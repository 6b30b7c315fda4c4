import { defineModule } from '../../module.js';
import { routes } from './schema.js';
import { routes as routes2 } from './scheduled-schema.js';
import { messagesEvents } from './events.js';
import { MessageService } from './service.js';
import { ScheduledMessages } from './scheduled.js';

declare module '../../module.js' {
  interface ServiceRegistry {
    messages: MessageService;
    scheduledMessages: ScheduledMessages;
  }
}

export default defineModule({
  name: 'messages',
  services: {
    messages: (s, { db, infra }) => new MessageService(db, infra.eventLog, s.requests, s.routing, infra.logger),
    scheduledMessages: (s, { db, infra }) =>
      new ScheduledMessages(db, infra.eventLog, s.requests, s.messages, s.teammates, infra.logger, infra.config.timers.sweepIntervalMs),
  },
  routes: { ...routes, ...routes2 },
  tags: [{ name: 'Messages', description: 'Messages of a request.', segments: ['requests/messages'] }],
  events: messagesEvents,
  jobs: (queue, services) => {
    // Scheduled messages: every process sweeps the due ones; each is sent once (scheduled.ts).
    queue.runBeside(services.scheduledMessages.backgroundTask());
  },
});
