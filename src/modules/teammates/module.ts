import { defineModule } from '../../module.js';
import { routes } from './schema.js';
import { routes as routes2 } from './invitation-schema.js';
import { teammatesEvents } from './events.js';
import { TeammateService } from './service.js';

declare module '../../module.js' {
  interface ServiceRegistry {
    teammates: TeammateService;
  }
}

export default defineModule({
  name: 'teammates',
  services: {
    teammates: (s, { db, infra }) => new TeammateService(db, infra.eventLog, infra.config.jwtSecret, infra.config.authCacheMs, s.projects),
  },
  routes: { ...routes, ...routes2 },
  tags: [
    { name: 'Teammates', description: 'Project users and their roles.', segments: ['project_users', 'teammate-by-user'] },
    { name: 'Invitations', description: 'Invitations to join a project.', segments: ['invitations'] },
  ],
  events: teammatesEvents,
});
