import { defineModule } from '../../module.js';
import { routes } from './schema.js';
import { apiKeysEvents } from './events.js';

export default defineModule({
  name: 'api-keys',
  routes,
  tags: [
    { name: 'API keys', description: "Keys that call the API as a project's integration.", segments: ['api_keys'] },
  ],
  events: apiKeysEvents,
});
