import { defineModule } from '../../module.js';
import { routes } from './schema.js';
import { tagsEvents } from './events.js';
import { TagService } from './service.js';

declare module '../../module.js' {
  interface ServiceRegistry {
    tags: TagService;
  }
}

export default defineModule({
  name: 'tags',
  services: {
    tags: (_s, { db, infra }) => new TagService(db, infra.eventLog),
  },
  routes,
  tags: [{ name: 'Tags', description: 'Tags for requests.', segments: ['tags'] }],
  events: tagsEvents,
});
