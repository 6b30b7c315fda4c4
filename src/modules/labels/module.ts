import { defineModule } from '../../module.js';
import { routes } from './schema.js';
import { labelsEvents } from './events.js';

export default defineModule({
  name: 'labels',
  routes,
  tags: [
    { name: 'Labels', description: 'Translations of the widget and e-mail texts.', segments: ['labels'] },
  ],
  events: labelsEvents,
});
