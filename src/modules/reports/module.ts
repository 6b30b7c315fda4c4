import { defineModule } from '../../module.js';
import { reportRoutes } from './routes.js';
import { reportsEvents } from './events.js';
import { ConversationsReport } from './conversations-csv.js';

declare module '../../module.js' {
  interface ServiceRegistry {
    reports: ConversationsReport;
  }
}

export default defineModule({
  name: 'reports',
  services: {
    reports: (_s, { db, infra }) => new ConversationsReport(db, infra.eventLog),
  },
  routes: reportRoutes,
  events: reportsEvents,
});
