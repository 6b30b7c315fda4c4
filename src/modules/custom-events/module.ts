import { defineModule } from '../../module.js';
import { routes } from './schema.js';

export default defineModule({
  name: 'custom-events',
  routes,
  tags: [
    { name: 'Custom events', description: 'Events sent by clients.', segments: ['events'] },
  ],
});
