import { defineModule } from '../../module.js';
import { routes } from './schema.js';
import { AnalyticsService } from './service.js';

declare module '../../module.js' {
  interface ServiceRegistry {
    analytics: AnalyticsService;
  }
}

export default defineModule({
  name: 'analytics',
  services: {
    analytics: (_s, { db }) => new AnalyticsService(db),
  },
  routes,
  tags: [{ name: 'Analytics', description: 'Counts and aggregates of requests and messages.', segments: ['analytics'] }],
});
