import { defineModule } from '../../module.js';
import { routes } from './schema.js';
import { routes as routes2 } from './scheduled-schema.js';
import { messagesEvents } from './events.js';

export default defineModule({
  name: 'messages',
  routes: { ...routes, ...routes2 },
  tags: [
    { name: 'Messages', description: 'Messages of a request.', segments: ['requests/messages'] },
  ],
  events: messagesEvents,
  jobs: (queue, services) => {
    // Scheduled messages: every process sweeps the due ones; each is sent once (scheduled.ts).
    queue.runBeside(services.scheduledMessages.backgroundTask());
  },
});
