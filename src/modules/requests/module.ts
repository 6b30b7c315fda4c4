import { defineModule } from '../../module.js';
import { routes } from './schema.js';
import './subscription.js';
import { requestsEvents } from './events.js';

export default defineModule({
  name: 'requests',
  routes,
  tags: [
    { name: 'Requests', description: 'Conversations: their state, participants, notes and tags.', segments: ['requests'] },
  ],
  events: requestsEvents,
  jobs: (queue, services) => {
    // Closed conversations past their project's retention_days.
    queue.runBeside(services.retention.task());
  },
});
