import { defineModule } from '../../module.js';
import { routes } from './schema.js';
import { tagsEvents } from './events.js';

export default defineModule({
  name: 'tags',
  routes,
  tags: [
    { name: 'Tags', description: 'Tags for requests.', segments: ['tags'] },
  ],
  events: tagsEvents,
});
