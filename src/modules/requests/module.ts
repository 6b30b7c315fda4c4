import { defineModule } from '../../module.js';
import { routes } from './schema.js';
import './subscription.js';
import { requestsEvents } from './events.js';
import { RequestService } from './service.js';
import { RequestMerge } from './merge.js';
import { RequestRetention } from './retention.js';
import { SeenService } from './seen.js';

declare module '../../module.js' {
  interface ServiceRegistry {
    requests: RequestService;
    requestMerge: RequestMerge;
    retention: RequestRetention;
    seen: SeenService;
  }
}

export default defineModule({
  name: 'requests',
  services: {
    requests: (s, { db, infra }) => new RequestService(db, infra.eventLog, s.routing),
    requestMerge: (s, { db, infra }) => new RequestMerge(db, infra.eventLog, s.requests, s.routing),
    retention: (_s, { db, infra }) => new RequestRetention(db, infra.eventLog, infra.files, infra.logger, infra.config.retentionSweepIntervalMs),
    seen: (s, { db, infra }) => new SeenService(db, infra.eventLog, s.requests),
  },
  routes,
  tags: [{ name: 'Requests', description: 'Conversations: their state, participants, notes and tags.', segments: ['requests'] }],
  events: requestsEvents,
  jobs: (queue, services) => {
    // Closed conversations past their project's retention_days.
    queue.runBeside(services.retention.task());
  },
});
