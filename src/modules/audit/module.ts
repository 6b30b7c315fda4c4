import { defineModule } from '../../module.js';
import { routes } from './schema.js';
import { AuditService } from './service.js';

declare module '../../module.js' {
  interface ServiceRegistry {
    audit: AuditService;
  }
}

export default defineModule({
  name: 'audit',
  services: {
    audit: (_s, { db, infra }) => new AuditService(db, infra.config.auditRetentionDays, infra.config.retentionSweepIntervalMs, infra.logger),
  },
  routes,
  tags: [{ name: 'Audit', description: "The project's audit log: who changed what, when and from where.", segments: ['audit'] }],
  jobs: (queue, services) => {
    // Audit entries past AUDIT_RETENTION_DAYS.
    queue.runBeside(services.audit.retentionTask());
  },
});
