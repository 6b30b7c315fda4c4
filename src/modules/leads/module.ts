import { defineModule } from '../../module.js';
import { routes } from './schema.js';
import { leadsEvents } from './events.js';
import { LeadService } from './service.js';
import { LeadPrivacy } from './privacy.js';

declare module '../../module.js' {
  interface ServiceRegistry {
    leads: LeadService;
    leadPrivacy: LeadPrivacy;
  }
}

export default defineModule({
  name: 'leads',
  services: {
    leads: (s, { db, infra }) => new LeadService(db, infra.eventLog, s.segments),
    leadPrivacy: (_s, { db, infra }) => new LeadPrivacy(db, infra.eventLog, infra.files, infra.logger),
  },
  routes,
  tags: [{ name: 'Leads', description: 'Visitors and contacts.', segments: ['leads'] }],
  events: leadsEvents,
});
