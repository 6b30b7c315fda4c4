import type { Config } from '../../config.js';
import type { Db } from '../../infra/database.js';
import type { EventConsumer } from '../../infra/event-consumers.js';
import type { LoggedEvent } from '../../infra/event-log.js';
import type { Logger } from '../../infra/logger.js';
import type { Mailer } from './mailer.js';
import type { OutgoingMail } from './transport.js';
import { newConversationMail, slaMail, transcriptMail, webhookDisabledMail, type FailedAttemptLine } from './templates.js';

// E-mail notifications are a consumer of the event log (infra/event-consumers.ts): each batch of a
// project's events is read after the last one handled, and the messages are queued with ids made
// from the event, so a process dying anywhere leaves the events to read again and nothing is sent
// twice. A notification is therefore never lost with a process.
//
// - `request.create`: each agent it was assigned to gets an e-mail if offline, unless their
//   teammate settings say `email_notifications: false` when the event is read.
// - `request.close`: the visitor (the lead's e-mail) gets the transcript if the project settings
//   say `email_transcript: true`.
// - `sla.warning` and `sla.breach`: each agent serving the request gets an e-mail, online or not
//   (the console shows it too), unless their settings say `email_notifications: false`.
// - `subscription.disabled`: the project's owner and admins learn that a webhook subscription was
//   disabled, why, and its last failed attempts.

const watched = ['request.create', 'request.close', 'sla.warning', 'sla.breach', 'subscription.disabled'];
/** Failed attempts the webhook-disabled e-mail lists. */
const attemptsListed = 5;

export class MailNotifications implements EventConsumer {
  readonly name = 'email-notifications';

  constructor(
    private db: Db,
    private mailer: Mailer,
    private config: Config,
    private logger: Logger,
  ) {}

  wants(event: LoggedEvent) {
    return watched.includes(event.name);
  }

  async handle(projectId: string, events: LoggedEvent[]) {
    for (const event of events) {
      try {
        for (const [key, mail] of await this.mailsFor(this.db, event)) await this.mailer.send(mail, { jobId: `notify-${event.id}-${key}` });
      } catch (error) {
        // One event that cannot be read must not hold back the project's later ones.
        this.logger.error({ err: error, event: event.id, project: projectId }, 'e-mail notification skipped');
      }
    }
  }

  /** The messages one event calls for, each with a key unique within the event. */
  private async mailsFor(db: Db, event: LoggedEvent): Promise<Array<[string, OutgoingMail]>> {
    if (event.name === 'subscription.disabled') return this.webhookDisabledMails(db, event);
    const request = await db.request.findFirst({ where: { id: event.subject, id_project: event.projectId } });
    if (!request) return [];
    const project = await db.project.findUnique({ where: { id: event.projectId }, select: { name: true, settings: true } });
    if (!project) return [];
    if (event.name === 'sla.warning' || event.name === 'sla.breach') {
      if (!request.participatingAgents.length) return [];
      const agents = await db.projectUser.findMany({
        where: { id_project: event.projectId, id_user: { in: request.participatingAgents }, trashed: false },
        include: { user: true },
      });
      const link = `${this.config.email.publicUrl}/console/projects/${encodeURIComponent(event.projectId)}/conversations/${encodeURIComponent(request.request_id)}`;
      const kind = event.name === 'sla.breach' ? 'breach' : 'warning';
      return agents
        .filter((a) => (a.settings as Record<string, unknown>).email_notifications !== false && a.user.email)
        .map((a) => {
          const mail = slaMail(project.name, request.ticket_id, kind, String(event.payload.target), String(event.payload.due_at), link);
          return [a.id_user, { ...mail, to: [a.user.email!], projectId: event.projectId }];
        });
    }
    if (event.name === 'request.create') {
      if (!request.participatingAgents.length) return [];
      const agents = await db.projectUser.findMany({
        where: { id_project: event.projectId, id_user: { in: request.participatingAgents }, trashed: false },
        include: { user: true },
      });
      const link = `${this.config.email.publicUrl}/console/projects/${encodeURIComponent(event.projectId)}/conversations/${encodeURIComponent(request.request_id)}`;
      return agents
        .filter((a) => (a.presence as { status?: string } | null)?.status !== 'online')
        .filter((a) => (a.settings as Record<string, unknown>).email_notifications !== false && a.user.email)
        .map((a) => {
          const mail = newConversationMail(project.name, request.ticket_id, request.first_text, link);
          return [a.id_user, { ...mail, to: [a.user.email!], projectId: event.projectId }];
        });
    }
    // request.close
    if ((project.settings as Record<string, unknown>).email_transcript !== true || !request.leadId) return [];
    const lead = await db.lead.findFirst({ where: { id: request.leadId, id_project: event.projectId }, select: { email: true } });
    if (!lead?.email) return [];
    const messages = await db.message.findMany({
      where: { id_project: event.projectId, request_id: request.request_id, hidden: false },
      orderBy: { createdAt: 'asc' },
      take: 1000,
      select: { senderFullname: true, sender: true, text: true, createdAt: true },
    });
    const mail = transcriptMail(
      project.name,
      request.ticket_id,
      messages.map((m) => ({ sender: m.senderFullname || m.sender, text: m.text, at: m.createdAt })),
    );
    return [['transcript', { ...mail, to: [lead.email], projectId: event.projectId }]];
  }

  private async webhookDisabledMails(db: Db, event: LoggedEvent): Promise<Array<[string, OutgoingMail]>> {
    const subscription = await db.subscription.findFirst({ where: { id: event.subject, id_project: event.projectId }, select: { event: true, target: true } });
    const project = await db.project.findUnique({ where: { id: event.projectId }, select: { name: true } });
    if (!subscription || !project) return [];
    const admins = await db.projectUser.findMany({
      where: { id_project: event.projectId, role: { in: ['owner', 'admin'] }, trashed: false, status: 'active' },
      include: { user: { select: { email: true } } },
    });
    const to = [...new Set(admins.map((a) => a.user.email).filter((e): e is string => !!e))];
    if (!to.length) return [];
    const recent = await db.webhookDelivery.findMany({
      where: { subscriptionId: event.subject, id_project: event.projectId },
      orderBy: { updatedAt: 'desc' },
      take: attemptsListed,
      select: { event: true, attempts: true },
    });
    const attempts: FailedAttemptLine[] = recent
      .flatMap((d) => (d.attempts as unknown as Array<{ at: string; statusCode: number | null; error: string | null }>).map((a) => ({ ...a, event: d.event })))
      .filter((a) => a.error)
      .sort((a, b) => (a.at < b.at ? 1 : -1))
      .slice(0, attemptsListed);
    const reason = typeof event.payload.reason === 'string' ? event.payload.reason : 'failing';
    const link = `${this.config.email.publicUrl}/dashboard/#/project/${event.projectId}/webhooks`;
    return [['admins', { ...webhookDisabledMail(project.name, subscription, reason, attempts, link), to, projectId: event.projectId }]];
  }
}
