import { defineModule } from '../../module.js';
import { routes, aliases } from './schema.js';
import { WaitingOffers } from './waiting-offers.js';
import { RoutingService } from './service.js';
import { AssignmentService } from './assignment.js';

declare module '../../module.js' {
  interface ServiceRegistry {
    routing: RoutingService;
    assignments: AssignmentService;
  }
}

export default defineModule({
  name: 'routing',
  services: {
    routing: (s, { db }) => new RoutingService(db, s.projects),
    assignments: (s) => new AssignmentService(s.routing, s.requests),
  },
  routes,
  aliases,
  listeners: (services) => [new WaitingOffers(services.assignments)],
});
