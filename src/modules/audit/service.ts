import { z } from 'zod';
import { badInput, parseInput } from '../../errors.js';
import type { Db } from '../../infra/database.js';
import { periodicSweep, type BackgroundTask } from '../../infra/job-queue.js';
import type { Logger } from '../../infra/logger.js';
import type { AuditEntry } from '../../generated/prisma/client.js';
import { listingInput, pageOf } from '../../paging.js';

export type AuditEntryRecord = AuditEntry;

const dayMs = 86_400_000;
const instant = z
  .string()
  .trim()
  .refine((value) => !Number.isNaN(Date.parse(value)), 'must be an ISO-8601 date or time')
  .transform((value) => new Date(value));
const oneOrMore = z
  .union([z.string(), z.array(z.string())])
  .transform((value) => (Array.isArray(value) ? value : [value]).flatMap((v) => v.split(',')).map((v) => v.trim()).filter(Boolean));

const listInput = listingInput(['createdAt', 'action'], 'createdAt').extend({
  actor: z.string().trim().min(1, 'must not be empty').max(200).optional(),
  actorKind: z.enum(['account', 'api_key', 'bot', 'system'], { message: 'must be one of account, api_key, bot, system' }).optional(),
  action: oneOrMore.optional(),
  target: z.string().trim().min(1, 'must not be empty').max(200).optional(),
  targetType: z.string().trim().min(1, 'must not be empty').max(100).optional(),
  from: instant.optional(),
  to: instant.optional(),
});

/**
 * Reads a project's audit log (written by record.ts, with each change) and removes what is past
 * its retention. Nothing else changes or deletes an entry: the API only reads.
 */
export class AuditService {
  constructor(
    private db: Db,
    private retentionDays: number,
    private sweepIntervalMs: number,
    private logger: Logger,
  ) {}

  private where(projectId: string, query: unknown) {
    const input = parseInput(listInput, query);
    if (input.from && input.to && input.from > input.to) throw badInput('from', 'from: must not be after to');
    const where = {
      id_project: projectId,
      ...(input.actor ? { actorId: input.actor } : {}),
      ...(input.actorKind ? { actorKind: input.actorKind } : {}),
      ...(input.action?.length ? { action: { in: input.action } } : {}),
      ...(input.target ? { target: input.target } : {}),
      ...(input.targetType ? { targetType: input.targetType } : {}),
      ...(input.from || input.to ? { createdAt: { ...(input.from ? { gte: input.from } : {}), ...(input.to ? { lte: input.to } : {}) } } : {}),
    };
    return { input, where };
  }

  /** Entries, newest first by default, filtered by actor, action, target and time range. */
  list(projectId: string, query: unknown) {
    const { input, where } = this.where(projectId, query);
    return this.db.auditEntry.findMany({ where, ...pageOf(input) });
  }

  /** How many entries the same filters match (for paging). */
  count(projectId: string, query: unknown) {
    const { where } = this.where(projectId, { ...(query as object), page: undefined, limit: undefined });
    return this.db.auditEntry.count({ where });
  }

  /** Removes the entries older than the retention; answers how many. */
  async removeExpired(now = new Date()) {
    const { count } = await this.db.auditEntry.deleteMany({ where: { createdAt: { lt: new Date(now.getTime() - this.retentionDays * dayMs) } } });
    if (count) this.logger.info({ removed: count, retentionDays: this.retentionDays }, 'audit entries past retention removed');
    return count;
  }

  /** Runs beside the workers: the retention sweep (deleting twice, from two nodes, is harmless). */
  retentionTask(): BackgroundTask {
    return periodicSweep({
      name: 'audit-retention',
      intervalMs: this.sweepIntervalMs,
      sweep: () => this.removeExpired(),
      logger: this.logger,
      failure: 'audit retention sweep failed',
    });
  }
}
