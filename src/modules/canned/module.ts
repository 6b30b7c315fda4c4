import { defineModule } from '../../module.js';
import { routes } from './schema.js';
import { cannedEvents } from './events.js';
import { CannedService } from './service.js';

declare module '../../module.js' {
  interface ServiceRegistry {
    canned: CannedService;
  }
}

export default defineModule({
  name: 'canned',
  services: {
    canned: (_s, { db, infra }) => new CannedService(db, infra.eventLog),
  },
  routes,
  tags: [{ name: 'Canned responses', description: 'Saved answers.', segments: ['canned'] }],
  events: cannedEvents,
});
