import { defineModule } from '../../module.js';
import { routes } from './schema.js';
import { groupsEvents } from './events.js';
import { GroupService } from './service.js';

declare module '../../module.js' {
  interface ServiceRegistry {
    groups: GroupService;
  }
}

export default defineModule({
  name: 'groups',
  services: {
    groups: (s, { db, infra }) => new GroupService(db, infra.eventLog, s.departments),
  },
  routes,
  tags: [{ name: 'Groups', description: 'Groups of teammates.', segments: ['groups'] }],
  events: groupsEvents,
});
