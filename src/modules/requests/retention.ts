import type { Db } from '../../infra/database.js';
import type { EventLog } from '../../infra/event-log.js';
import type { FileStore } from '../../infra/file-store.js';
import { periodicSweep, type BackgroundTask } from '../../infra/job-queue.js';
import type { Logger } from '../../infra/logger.js';
import { namedPath } from '../leads/privacy.js';
import { RequestStatus } from './states.js';

// A project's retention policy (`retention_days`): closed conversations older than it are removed
// with their messages and the files attached to them, by a sweep beside the workers. It works in
// batches, each one transaction that removes its rows and logs `retention.purge` with the counts
// (audited, so the audit log shows the progress, batch by batch), so stopping it anywhere loses
// nothing: what is left is simply found by the next run. Two nodes sweeping at once delete
// disjoint or already-gone rows (a batch locks its requests, skipping those another holds).

const dayMs = 86_400_000;
export const retentionBatch = 200;

export interface RetentionProgress {
  projectId: string;
  requests: number;
  messages: number;
  files: number;
  batches: number;
}

export class RequestRetention {
  private stopping = false;

  constructor(
    private db: Db,
    private events: EventLog,
    private files: FileStore,
    private logger: Logger,
    private sweepIntervalMs: number,
  ) {}

  /** Removes what every project's policy lets go; answers the progress per project that had any. */
  async sweep(now = new Date()): Promise<RetentionProgress[]> {
    const projects = await this.db.project.findMany({ where: { retention_days: { gt: 0 }, deletedAt: null }, select: { id: true, retention_days: true } });
    const done: RetentionProgress[] = [];
    for (const project of projects) {
      if (this.stopping) break;
      const progress = await this.project(project.id, new Date(now.getTime() - project.retention_days! * dayMs));
      if (progress.requests) done.push(progress);
    }
    return done;
  }

  /** One project's closed conversations closed before `before`, batch by batch until none is left (or the task stops). */
  async project(projectId: string, before: Date): Promise<RetentionProgress> {
    const progress: RetentionProgress = { projectId, requests: 0, messages: 0, files: 0, batches: 0 };
    while (!this.stopping) {
      const batch = await this.batch(projectId, before);
      if (!batch) break;
      progress.requests += batch.requests;
      progress.messages += batch.messages;
      progress.files += batch.files;
      progress.batches++;
      this.logger.info({ project: projectId, ...progress }, 'retention: closed conversations removed');
    }
    return progress;
  }

  private async batch(projectId: string, before: Date) {
    const removedFiles: Array<{ path: string; thumbnail: string | null }> = [];
    const counts = await this.events.transaction(async (tx, emit) => {
      const requests = await tx.$queryRaw<Array<{ id: string; request_id: string }>>`
        SELECT "id", "request_id" FROM "Request"
        WHERE "id_project" = ${projectId} AND "status" = ${RequestStatus.CLOSED} AND "closed_at" < ${before}
        ORDER BY "closed_at" LIMIT ${retentionBatch} FOR UPDATE SKIP LOCKED`;
      if (!requests.length) return null;
      const requestIds = requests.map((r) => r.request_id);
      const messages = await tx.message.findMany({ where: { id_project: projectId, request_id: { in: requestIds } }, select: { metadata: true } });
      const paths = messages.map((m) => namedPath((m.metadata as { src?: unknown } | null)?.src)).filter((p): p is string => !!p);
      const files = paths.length ? await tx.storedFile.findMany({ where: { id_project: projectId, path: { in: paths } } }) : [];
      const removedMessages = await tx.message.deleteMany({ where: { id_project: projectId, request_id: { in: requestIds } } });
      await tx.requestSeen.deleteMany({ where: { id_project: projectId, request_id: { in: requestIds } } });
      // Their SLA rows go too; the breaches stay counted in the SLA report (no personal data).
      await tx.requestSla.deleteMany({ where: { id_project: projectId, request_id: { in: requestIds } } });
      await tx.slaTimer.deleteMany({ where: { id_project: projectId, request_id: { in: requestIds } } });
      if (files.length) await tx.storedFile.deleteMany({ where: { id: { in: files.map((f) => f.id) } } });
      await tx.request.deleteMany({ where: { id: { in: requests.map((r) => r.id) } } });
      removedFiles.push(...files);
      const counts = { requests: requests.length, messages: removedMessages.count, files: files.length };
      await emit({ projectId, name: 'retention.purge', subject: projectId, payload: { ...counts, before: before.toISOString() } });
      return counts;
    });
    for (const file of removedFiles) {
      for (const path of [file.path, file.thumbnail]) {
        if (path) await this.files.remove(path).catch((error) => this.logger.warn({ err: (error as Error).message, path }, 'retention: could not remove a file'));
      }
    }
    return counts;
  }

  /** Runs beside the workers; stopping it waits for the batch in progress only. */
  task(): BackgroundTask {
    this.stopping = false;
    return periodicSweep({
      name: 'request-retention',
      intervalMs: this.sweepIntervalMs,
      sweep: () => this.sweep(),
      logger: this.logger,
      failure: 'retention sweep failed; the next one resumes',
      stopping: () => (this.stopping = true),
    });
  }
}
