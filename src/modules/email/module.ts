import { defineModule } from '../../module.js';
import { routes } from './schema.js';
import { emailJob } from './mailer.js';

export default defineModule({
  name: 'email',
  routes,
  tags: [
    { name: 'E-mails', description: 'E-mails sent on behalf of a project.', segments: ['emails'] },
  ],
  listeners: (services) => [services.email.notifications, services.email.invitations],
  jobTypes: [emailJob],
  jobs: (queue, services) => {
    queue.define(services.email.mailer.jobDefinition());
  },
});
