import { defineModule } from '../../module.js';
import { routes } from './schema.js';

export default defineModule({
  name: 'audit',
  routes,
  tags: [
    { name: 'Audit', description: "The project's audit log: who changed what, when and from where.", segments: ['audit'] },
  ],
  jobs: (queue, services) => {
    // Audit entries past AUDIT_RETENTION_DAYS.
    queue.runBeside(services.audit.retentionTask());
  },
});
