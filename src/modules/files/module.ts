import { defineModule } from '../../module.js';
import { routes } from './schema.js';
import { filesEvents } from './events.js';
import { FileService } from './service.js';

declare module '../../module.js' {
  interface ServiceRegistry {
    files: FileService;
  }
}

export default defineModule({
  name: 'files',
  services: {
    files: (s, { db, infra }) => new FileService(db, infra.eventLog, infra.files, s.teammates, infra.config.files),
  },
  routes,
  tags: [{ name: 'Files', description: 'Uploads and downloads of files and images.', segments: ['files', 'images'] }],
  events: filesEvents,
});
