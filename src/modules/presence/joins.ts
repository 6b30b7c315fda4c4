import type { Db } from '../../infra/database.js';
import type { EventConsumer } from '../../infra/event-consumers.js';
import type { LoggedEvent } from '../../infra/event-log.js';
import type { PresenceService } from './service.js';

// Whoever joins a project while connected (its creator, an invitee accepting) is online there
// without reconnecting: a listener on the `project_user.invite` a join logs (a pending invitation
// logs one too, with `pending: true`, and is not a join). Read again after a crash, it writes the
// same presence again, which changes nothing.

export class PresenceJoins implements EventConsumer {
  readonly name = 'presence-joins';

  constructor(
    private db: Db,
    private presence: PresenceService,
  ) {}

  wants(event: LoggedEvent) {
    return event.name === 'project_user.invite' && (event.payload as { pending?: unknown } | null)?.pending !== true;
  }

  async handle(projectId: string, events: LoggedEvent[]) {
    const members = await this.db.projectUser.findMany({
      where: { id: { in: events.map((event) => event.subject) }, id_project: projectId },
      select: { id_user: true },
    });
    for (const userId of new Set(members.map((m) => m.id_user))) await this.presence.joined(userId);
  }
}
