import { defineModule } from '../../module.js';
import { reportRoutes } from './routes.js';
import { reportsEvents } from './events.js';

export default defineModule({
  name: 'reports',
  routes: reportRoutes,
  events: reportsEvents,
});
