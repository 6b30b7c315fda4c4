import { defineModule } from '../../module.js';
import { routes } from './schema.js';
import { labelsEvents } from './events.js';
import { LabelService } from './service.js';

declare module '../../module.js' {
  interface ServiceRegistry {
    labels: LabelService;
  }
}

export default defineModule({
  name: 'labels',
  services: {
    labels: (_s, { db, infra }) => new LabelService(db, infra.eventLog),
  },
  routes,
  tags: [{ name: 'Labels', description: 'Translations of the widget and e-mail texts.', segments: ['labels'] }],
  events: labelsEvents,
});
