import { defineModule } from '../../module.js';
import { routes } from './schema.js';
import { apiKeysEvents } from './events.js';
import { ApiKeyService } from './service.js';

declare module '../../module.js' {
  interface ServiceRegistry {
    apiKeys: ApiKeyService;
  }
}

export default defineModule({
  name: 'api-keys',
  services: {
    apiKeys: (_s, { db, infra }) => new ApiKeyService(db, infra.eventLog, infra.config, infra.limiters),
  },
  routes,
  tags: [{ name: 'API keys', description: "Keys that call the API as a project's integration.", segments: ['api_keys'] }],
  events: apiKeysEvents,
});
