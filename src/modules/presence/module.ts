import { defineModule } from '../../module.js';
import { routes } from './schema.js';
import { presenceEvents } from './events.js';
import { PresenceJoins } from './joins.js';

export default defineModule({
  name: 'presence',
  routes,
  events: presenceEvents,
  listeners: (services) => [new PresenceJoins(services.infra.database.prisma, services.presence)],
});
