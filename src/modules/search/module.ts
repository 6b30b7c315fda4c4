import { defineModule } from '../../module.js';
import { routes } from './schema.js';
import { SearchService } from './service.js';

declare module '../../module.js' {
  interface ServiceRegistry {
    search: SearchService;
  }
}

export default defineModule({
  name: 'search',
  services: {
    search: (_s, { db }) => new SearchService(db),
  },
  routes,
  tags: [{ name: 'Search', description: 'Requests, messages and leads matching words.', segments: ['search'] }],
});
