import type { Config } from '../../config.js';
import type { Db } from '../../infra/database.js';
import type { EventConsumer } from '../../infra/event-consumers.js';
import type { LoggedEvent } from '../../infra/event-log.js';
import type { Invitation } from '../../generated/prisma/client.js';
import { invitationLinkSecret } from '../teammates/invitations.js';
import type { Mailer } from './mailer.js';
import { invitationMail } from './templates.js';

/**
 * E-mails each invitation with its accept link, a listener on the event log: the pending
 * `project_user.invite` an invitation logs is read after it commits (and again after a crash), and
 * the message is queued with an id made from the event, so it is sent once and never lost. The
 * same message goes whether or not the e-mail has an account: the link opens the console's
 * invitation page, which signs the invitee in (then POST /invitations/:id/accept) or up (POST
 * /invitations/:id/signup with the link's token). An invitation accepted or withdrawn before its
 * event is read needs no e-mail.
 */
export class InvitationMail implements EventConsumer {
  readonly name = 'invitation-mail';

  constructor(
    private db: Db,
    private mailer: Mailer,
    private config: Config,
  ) {}

  wants(event: LoggedEvent) {
    return event.name === 'project_user.invite' && (event.payload as { pending?: unknown } | null)?.pending === true;
  }

  async handle(projectId: string, events: LoggedEvent[]) {
    // A failure (the database or the queue unreachable) throws: the batch is read again, and
    // the messages queued already are not queued twice (their ids).
    for (const event of events) {
      const invitation = await this.db.invitation.findFirst({ where: { id: event.subject, id_project: projectId } });
      if (invitation) await this.send(invitation, { jobId: `invite-${event.id}` });
    }
  }

  acceptLink(invitation: Invitation) {
    const secret = invitationLinkSecret(this.config.jwtSecret, invitation);
    return `${this.config.email.publicUrl}/console/invitations/${encodeURIComponent(invitation.id)}?token=${encodeURIComponent(secret)}`;
  }

  private async send(invitation: Invitation, options: { jobId: string }) {
    const project = await this.db.project.findUnique({ where: { id: invitation.id_project }, select: { name: true } });
    const rendered = invitationMail(project?.name ?? 'a project', invitation.role, this.acceptLink(invitation));
    await this.mailer.send({ to: [invitation.email], ...rendered, projectId: invitation.id_project }, options);
  }
}
