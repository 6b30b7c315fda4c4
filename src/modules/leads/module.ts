import { defineModule } from '../../module.js';
import { routes } from './schema.js';
import { leadsEvents } from './events.js';

export default defineModule({
  name: 'leads',
  routes,
  tags: [
    { name: 'Leads', description: 'Visitors and contacts.', segments: ['leads'] },
  ],
  events: leadsEvents,
});
