import { defineModule } from '../../module.js';
import { routes } from './schema.js';
import { departmentsEvents } from './events.js';

export default defineModule({
  name: 'departments',
  routes,
  tags: [
    { name: 'Departments', description: 'Where requests are routed.', segments: ['departments'] },
  ],
  events: departmentsEvents,
});
