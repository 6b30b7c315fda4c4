import { defineModule } from '../../module.js';
import { routes } from './schema.js';
import { filesEvents } from './events.js';

export default defineModule({
  name: 'files',
  routes,
  tags: [
    { name: 'Files', description: 'Uploads and downloads of files and images.', segments: ['files', 'images'] },
  ],
  events: filesEvents,
});
