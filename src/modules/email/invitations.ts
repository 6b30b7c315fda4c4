import type { Config } from '../../config.js';
import type { Db } from '../../infra/database.js';
import type { Invitation } from '../../generated/prisma/client.js';
import type { Mailer } from './mailer.js';
import { invitationMail } from './templates.js';

/**
 * E-mails an invitation with its accept link, the same message whether or not the e-mail has an
 * account: the link opens the console's invitation page, which signs the invitee in (then POST
 * /invitations/:id/accept) or up (POST /invitations/:id/signup with the link's token).
 */
export class InvitationMail {
  constructor(
    private db: Db,
    private mailer: Mailer,
    private config: Config,
  ) {}

  acceptLink(invitation: Invitation, secret: string) {
    return `${this.config.email.publicUrl}/console/invitations/${encodeURIComponent(invitation.id)}?token=${encodeURIComponent(secret)}`;
  }

  async send(invitation: Invitation, secret: string) {
    const project = await this.db.project.findUnique({ where: { id: invitation.id_project }, select: { name: true } });
    const rendered = invitationMail(project?.name ?? 'a project', invitation.role, this.acceptLink(invitation, secret));
    await this.mailer.send({ to: [invitation.email], ...rendered, projectId: invitation.id_project });
  }
}
