import { defineModule } from '../../module.js';
import { routes } from './schema.js';
import { Credentials } from './credentials.js';
import { Accounts } from './accounts.js';
import { Sessions } from './sessions.js';
import { AccountMail } from './account-mail.js';

declare module '../../module.js' {
  interface ServiceRegistry {
    /** Credentials: what an Authorization header stands for. */
    auth: Credentials;
    accounts: Accounts;
    sessions: Sessions;
  }
}

export default defineModule({
  name: 'auth',
  services: {
    auth: (s, { db, infra }) => new Credentials(db, infra.bus, infra.config, infra.limiters, s.apiKeys),
    accounts: (s, { db, infra }) => new Accounts(db, infra.eventLog, infra.config, s.auth, new AccountMail(db, s.email.mailer, infra.config, infra.logger)),
    sessions: (s, { db, infra }) => new Sessions(db, infra.eventLog, infra.config, s.auth, s.projects),
  },
  routes,
  tags: [{ name: 'Auth', description: 'Sign-up, sign-in and the signed-in account.', segments: ['auth'] }],
});
