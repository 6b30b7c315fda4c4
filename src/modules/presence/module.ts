import { defineModule } from '../../module.js';
import { routes } from './schema.js';
import { presenceEvents } from './events.js';
import { PresenceJoins } from './joins.js';
import { PresenceService } from './service.js';

declare module '../../module.js' {
  interface ServiceRegistry {
    presence: PresenceService;
  }
}

export default defineModule({
  name: 'presence',
  services: {
    presence: (_s, { db, infra }) => new PresenceService(db, infra.eventLog, infra.presence, infra.logger, infra.config.presenceTtlMs),
  },
  routes,
  events: presenceEvents,
  listeners: (services) => [new PresenceJoins(services.infra.database.prisma, services.presence)],
});
