import { defineModule } from '../../module.js';
import { routes } from './schema.js';
import { departmentsEvents } from './events.js';
import { DepartmentService } from './service.js';

declare module '../../module.js' {
  interface ServiceRegistry {
    departments: DepartmentService;
  }
}

export default defineModule({
  name: 'departments',
  services: {
    departments: (_s, { db, infra }) => new DepartmentService(db, infra.eventLog),
  },
  routes,
  tags: [{ name: 'Departments', description: 'Where requests are routed.', segments: ['departments'] }],
  events: departmentsEvents,
});
