import { defineModule } from '../../module.js';
import { routes } from './schema.js';
import { segmentsEvents } from './events.js';

export default defineModule({
  name: 'segments',
  routes,
  tags: [
    { name: 'Segments', description: 'Saved lead filters.', segments: ['segments'] },
  ],
  events: segmentsEvents,
});
