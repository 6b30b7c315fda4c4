import { defineModule } from '../../module.js';
import { routes } from './schema.js';

export default defineModule({
  name: 'analytics',
  routes,
  tags: [
    { name: 'Analytics', description: 'Counts and aggregates of requests and messages.', segments: ['analytics'] },
  ],
});
