import type { Config } from '../../config.js';
import type { Db, Tx } from '../../infra/database.js';
import { toLogged, type EventLog, type EventRow, type LoggedEvent } from '../../infra/event-log.js';
import type { BackgroundTask } from '../../infra/job-queue.js';
import type { Logger } from '../../infra/logger.js';
import type { Mailer } from './mailer.js';
import type { OutgoingMail } from './transport.js';
import { newConversationMail, transcriptMail, webhookDisabledMail, type FailedAttemptLine } from './templates.js';

// E-mail notifications follow the event log, as webhooks do: each project has a cursor (the last
// sequence handled), moved in the same transaction that reads the events after it, while the
// messages are queued with ids made from the event, so a node dying anywhere leaves the events
// to read again and nothing is sent twice. A notification is therefore never lost with a process,
// as one driven by an in-process listener would be.
//
// - `request.create`: each agent it was assigned to gets an e-mail if offline, unless their
//   teammate settings say `email_notifications: false`.
// - `request.close`: the visitor (the lead's e-mail) gets the transcript if the project settings
//   say `email_transcript: true`.
// - `subscription.disabled`: the project's owner and admins learn that a webhook subscription was
//   disabled, why, and its last failed attempts.

const batchSize = 200;
const watched = ['request.create', 'request.close', 'subscription.disabled'];
/** Failed attempts the webhook-disabled e-mail lists. */
const attemptsListed = 5;

export class MailNotifications {
  private running: Promise<void> | undefined;
  private again = false;
  private stopped = true;

  constructor(
    private db: Db,
    private events: EventLog,
    private mailer: Mailer,
    private config: Config,
    private logger: Logger,
  ) {}

  /** Runs beside the workers: a sweep at each interval, and one soon after this process commits a watched event. */
  task(): BackgroundTask {
    return {
      name: 'email-notifications',
      start: async () => {
        this.stopped = false;
        const timer = setInterval(() => void this.sweep(), this.config.email.notifyIntervalMs);
        timer.unref();
        const unlisten = this.events.onCommit((event) => {
          if (watched.includes(event.name)) void this.sweep();
        });
        void this.sweep();
        return async () => {
          this.stopped = true;
          clearInterval(timer);
          unlisten();
          await this.running;
        };
      },
    };
  }

  /** Reads every project's new events; one sweep at a time, rerun if asked meanwhile. */
  sweep(): Promise<void> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = (async () => {
      do {
        this.again = false;
        const behind = await this.db.$queryRaw<Array<{ id: string }>>`
          SELECT p."id" FROM "Project" p LEFT JOIN "NotificationCursor" c ON c."id_project" = p."id"
          WHERE p."eventSeq" > COALESCE(c."seq", 0)`;
        for (const { id } of behind) {
          if (this.stopped) return;
          while ((await this.followProject(id)) === batchSize && !this.stopped);
        }
      } while (this.again && !this.stopped);
    })()
      .catch((error) => this.logger.error({ err: error }, 'e-mail notifications sweep failed'))
      .finally(() => (this.running = undefined));
    return this.running;
  }

  /** One batch of a project's events past its cursor; answers how many were read (0 when another node holds it). */
  private async followProject(projectId: string): Promise<number> {
    await this.db.$executeRaw`
      INSERT INTO "NotificationCursor" ("id_project", "seq", "updatedAt") VALUES (${projectId}, 0, CURRENT_TIMESTAMP)
      ON CONFLICT DO NOTHING`;
    return this.db.$transaction(async (tx) => {
      // Another node reading this project holds the row: it sends these, we skip.
      const [cursor] = await tx.$queryRaw<Array<{ seq: bigint }>>`
        SELECT "seq" FROM "NotificationCursor" WHERE "id_project" = ${projectId} FOR UPDATE SKIP LOCKED`;
      if (!cursor) return 0;
      const rows = await tx.$queryRaw<EventRow[]>`
        SELECT "id", "id_project", "seq", "name", "subject", "payload", "createdAt" FROM "DomainEvent"
        WHERE "id_project" = ${projectId} AND "seq" > ${cursor.seq} ORDER BY "seq" LIMIT ${batchSize}`;
      if (!rows.length) return 0;
      for (const event of rows.map(toLogged).filter((e) => watched.includes(e.name))) {
        try {
          for (const [key, mail] of await this.mailsFor(tx, event)) await this.mailer.send(mail, { jobId: `notify-${event.id}-${key}` });
        } catch (error) {
          // One event that cannot be read must not hold back the project's later ones.
          this.logger.error({ err: error, event: event.id, project: projectId }, 'e-mail notification skipped');
        }
      }
      await tx.$executeRaw`
        UPDATE "NotificationCursor" SET "seq" = ${rows[rows.length - 1].seq}, "updatedAt" = CURRENT_TIMESTAMP WHERE "id_project" = ${projectId}`;
      return rows.length;
    });
  }

  /**
   * The messages one event calls for, each with a key unique within the event. Read in the
   * cursor's transaction: the embedded database has one connection, which that transaction holds.
   */
  private async mailsFor(tx: Tx, event: LoggedEvent): Promise<Array<[string, OutgoingMail]>> {
    if (event.name === 'subscription.disabled') return this.webhookDisabledMails(tx, event);
    const request = await tx.request.findFirst({ where: { id: event.subject, id_project: event.projectId } });
    if (!request) return [];
    const project = await tx.project.findUnique({ where: { id: event.projectId }, select: { name: true, settings: true } });
    if (!project) return [];
    if (event.name === 'request.create') {
      if (!request.participatingAgents.length) return [];
      const agents = await tx.projectUser.findMany({
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
    const lead = await tx.lead.findFirst({ where: { id: request.leadId, id_project: event.projectId }, select: { email: true } });
    if (!lead?.email) return [];
    const messages = await tx.message.findMany({
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

  private async webhookDisabledMails(tx: Tx, event: LoggedEvent): Promise<Array<[string, OutgoingMail]>> {
    const subscription = await tx.subscription.findFirst({ where: { id: event.subject, id_project: event.projectId }, select: { event: true, target: true } });
    const project = await tx.project.findUnique({ where: { id: event.projectId }, select: { name: true } });
    if (!subscription || !project) return [];
    const admins = await tx.projectUser.findMany({
      where: { id_project: event.projectId, role: { in: ['owner', 'admin'] }, trashed: false, status: 'active' },
      include: { user: { select: { email: true } } },
    });
    const to = [...new Set(admins.map((a) => a.user.email).filter((e): e is string => !!e))];
    if (!to.length) return [];
    const recent = await tx.webhookDelivery.findMany({
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
