import type { Infrastructure } from '../../infra/index.js';
import { InternalMailService } from './internal-send.js';
import { InvitationMail } from './invitations.js';
import { Mailer } from './mailer.js';
import { MailNotifications } from './notifications.js';

/** The e-mail services: the mailer (queue + transport), internal sends and event-driven notifications. */
export function createEmailServices(infra: Infrastructure) {
  const db = infra.database.prisma;
  const mailer = new Mailer(infra.queue, infra.config, infra.logger);
  return {
    mailer,
    invitations: new InvitationMail(db, mailer, infra.config),
    internal: new InternalMailService(db, mailer, infra.limiters, infra.config.email),
    notifications: new MailNotifications(db, mailer, infra.config, infra.logger),
  };
}

export type EmailServices = ReturnType<typeof createEmailServices>;
