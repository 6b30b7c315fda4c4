import { defineModule } from '../../module.js';
import { routes } from './schema.js';
import { cannedEvents } from './events.js';

export default defineModule({
  name: 'canned',
  routes,
  tags: [
    { name: 'Canned responses', description: 'Saved answers.', segments: ['canned'] },
  ],
  events: cannedEvents,
});
