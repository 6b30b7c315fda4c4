import { defineModule } from '../../module.js';
import { routes } from './schema.js';
import { groupsEvents } from './events.js';

export default defineModule({
  name: 'groups',
  routes,
  tags: [
    { name: 'Groups', description: 'Groups of teammates.', segments: ['groups'] },
  ],
  events: groupsEvents,
});
