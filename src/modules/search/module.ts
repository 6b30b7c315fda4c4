import { defineModule } from '../../module.js';
import { routes } from './schema.js';

export default defineModule({
  name: 'search',
  routes,
  tags: [
    { name: 'Search', description: 'Requests, messages and leads matching words.', segments: ['search'] },
  ],
});
