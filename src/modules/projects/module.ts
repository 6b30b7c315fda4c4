import { defineModule } from '../../module.js';
import { routes } from './schema.js';
import { projectsEvents } from './events.js';
import { ProjectPurge } from './purge.js';
import { ProjectService } from './service.js';

declare module '../../module.js' {
  interface ServiceRegistry {
    projects: ProjectService;
  }
}

export default defineModule({
  name: 'projects',
  services: {
    projects: (_s, { db, infra }) => new ProjectService(db, infra.eventLog, infra.config.projectCacheMs),
  },
  routes,
  tags: [{ name: 'Projects', description: 'Projects, their settings, widget and keys.', segments: ['projects', 'widgets', 'keys'] }],
  events: projectsEvents,
  listeners: (services) => [new ProjectPurge(services.infra.database.prisma, services.infra.files, services.infra.logger)],
});
