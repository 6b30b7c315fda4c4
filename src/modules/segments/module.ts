import { defineModule } from '../../module.js';
import { routes } from './schema.js';
import { segmentsEvents } from './events.js';
import { SegmentService } from './service.js';

declare module '../../module.js' {
  interface ServiceRegistry {
    segments: SegmentService;
  }
}

export default defineModule({
  name: 'segments',
  services: {
    segments: (_s, { db, infra }) => new SegmentService(db, infra.eventLog),
  },
  routes,
  tags: [{ name: 'Segments', description: 'Saved lead filters.', segments: ['segments'] }],
  events: segmentsEvents,
});
