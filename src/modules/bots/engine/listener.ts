import type { Db } from '../../../infra/database.js';
import type { EventBus } from '../../../infra/event-bus.js';
import type { EventLog, LoggedEvent } from '../../../infra/event-log.js';
import type { JobQueue } from '../../../infra/job-queue.js';
import type { Logger } from '../../../infra/logger.js';
import { projectEventStream } from '../../../realtime/event-stream.js';
import { isBotSender } from '../identity.js';
import { botJobs } from '../jobs.js';

// Follows the event stream of every project that has a bot, and queues one `bots.answer` job per
// message that may need an answer. The stream backfills from the event log after any bus gap.
// Every node running workers listens; the job id (the message id) makes the answer happen once.

/** Tells every node that a project has a bot now, and from which event on to follow it. */
export const botProjectsChannel = 'bots:projects';

const mayNeedAnswer = (event: LoggedEvent) =>
  event.name === 'message.create' &&
  typeof event.payload.request_id === 'string' &&
  event.payload.hidden !== true &&
  !isBotSender(String(event.payload.sender ?? ''));

export class BotListener {
  private streams = new Map<string, { stop: () => void; done: Promise<void> }>();
  private stopped = true;

  constructor(
    private deps: { db: Db; bus: EventBus; eventLog: EventLog },
    private queue: JobQueue,
    private logger: Logger,
  ) {}

  async start(): Promise<() => Promise<void>> {
    this.stopped = false;
    const unlisten = this.deps.bus.subscribe(botProjectsChannel, (message) => {
      if (typeof message.projectId === 'string') this.follow(message.projectId, typeof message.after === 'number' ? message.after : null);
    });
    // A lost signal is a project never followed: look again after any gap.
    const unwatchGaps = this.deps.bus.onGap(() => void this.followProjectsWithBots());
    await this.followProjectsWithBots();
    return async () => {
      this.stopped = true;
      unlisten();
      unwatchGaps();
      const streams = [...this.streams.values()];
      this.streams.clear();
      for (const stream of streams) stream.stop();
      await Promise.allSettled(streams.map((s) => s.done));
    };
  }

  private async followProjectsWithBots() {
    try {
      const projects = await this.deps.db.bot.findMany({ where: { trashed: false }, distinct: ['id_project'], select: { id_project: true } });
      for (const { id_project } of projects) this.follow(id_project, null);
    } catch (error) {
      this.logger.error({ err: error }, 'bot listener could not list the projects with bots');
    }
  }

  /** Follows a project's events after sequence `after` (null: from now on). */
  follow(projectId: string, after: number | null) {
    if (this.stopped || this.streams.has(projectId)) return;
    const stream = projectEventStream(this.deps, projectId, after, mayNeedAnswer);
    const done = (async () => {
      for await (const event of stream) {
        // BullMQ job ids may not contain ':'; ids are per job name, so the message id is enough.
        const job = { projectId, requestId: String(event.payload.request_id), messageId: event.subject };
        await this.queue
          .enqueue(botJobs.answer, job, { jobId: `message-${event.subject}` })
          .catch((error) => this.logger.error({ err: error, message: event.subject }, 'could not queue a bot answer'));
      }
    })().catch((error) => {
      this.logger.error({ err: error, project: projectId }, 'bot listener stopped following a project');
      this.streams.delete(projectId);
    });
    this.streams.set(projectId, { stop: () => void stream.return(), done });
  }
}
