import { defineModule } from '../../module.js';
import { routes } from './schema.js';
import { CustomEventService } from './service.js';

declare module '../../module.js' {
  interface ServiceRegistry {
    customEvents: CustomEventService;
  }
}

export default defineModule({
  name: 'custom-events',
  services: {
    customEvents: (_s, { db, infra }) => new CustomEventService(db, infra.eventLog),
  },
  routes,
  tags: [{ name: 'Custom events', description: 'Events sent by clients.', segments: ['events'] }],
});
