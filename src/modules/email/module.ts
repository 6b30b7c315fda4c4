import { defineModule } from '../../module.js';
import { routes } from './schema.js';
import { emailJob } from './mailer.js';
import { createEmailServices } from './index.js';

declare module '../../module.js' {
  interface ServiceRegistry {
    email: ReturnType<typeof createEmailServices>;
  }
}

export default defineModule({
  name: 'email',
  services: {
    email: (_s, { infra }) => createEmailServices(infra),
  },
  routes,
  tags: [{ name: 'E-mails', description: 'E-mails sent on behalf of a project.', segments: ['emails'] }],
  listeners: (services) => [services.email.notifications, services.email.invitations],
  jobTypes: [emailJob],
  jobs: (queue, services) => {
    queue.define(services.email.mailer.jobDefinition());
  },
});
