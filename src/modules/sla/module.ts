import { defineModule } from '../../module.js';
import { routes } from './schema.js';
import { slaEvents } from './events.js';
import { SlaTracker } from './tracker.js';

export default defineModule({
  name: 'sla',
  routes,
  tags: [
    { name: 'SLA policies', description: 'Response and resolution targets per department and priority, in operating hours.', segments: ['sla_policies'] },
  ],
  events: slaEvents,
  // Each request's SLA follows its changes.
  listeners: (services) => [new SlaTracker(services.infra.database.prisma, services.infra.eventLog, services.infra.logger)],
  jobs: (queue, services) => {
    queue.runBeside(services.slaTimers.backgroundTask());
  },
});
