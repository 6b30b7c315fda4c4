import { defineModule } from '../../module.js';
import { routes } from './schema.js';
import { AuthService } from './service.js';
import { AccountMail } from './account-mail.js';

declare module '../../module.js' {
  interface ServiceRegistry {
    auth: AuthService;
  }
}

export default defineModule({
  name: 'auth',
  services: {
    auth: (s, { db, infra }) =>
      new AuthService(db, infra.eventLog, infra.config, infra.limiters, s.projects, new AccountMail(db, s.email.mailer, infra.config, infra.logger), s.apiKeys),
  },
  routes,
  tags: [
    { name: 'Auth', description: 'Sign-up, sign-in and the signed-in account.', segments: ['auth'] },
  ],
});
