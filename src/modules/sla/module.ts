import { defineModule } from '../../module.js';
import { routes } from './schema.js';
import { slaEvents } from './events.js';
import { SlaTracker } from './tracker.js';
import { SlaPolicyService } from './policies.js';
import { SlaTimers } from './timers.js';
import { SlaReports } from './report.js';

declare module '../../module.js' {
  interface ServiceRegistry {
    slaPolicies: SlaPolicyService;
    slaTimers: SlaTimers;
    slaReports: SlaReports;
  }
}

export default defineModule({
  name: 'sla',
  services: {
    slaPolicies: (_s, { db, infra }) => new SlaPolicyService(db, infra.eventLog),
    slaTimers: (_s, { db, infra }) => new SlaTimers(db, infra.eventLog, infra.logger, infra.config.timers.sweepIntervalMs),
    slaReports: (_s, { db }) => new SlaReports(db),
  },
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
