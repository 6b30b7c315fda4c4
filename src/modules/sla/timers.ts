import type { SlaTimer } from '../../generated/prisma/client.js';
import type { Db, Tx } from '../../infra/database.js';
import type { EventLog } from '../../infra/event-log.js';
import { periodicSweep, type BackgroundTask } from '../../infra/job-queue.js';
import type { Logger } from '../../infra/logger.js';
import { transactionWithRetry } from '../requests/request-rows.js';
import { applySla } from './apply.js';
import { evaluate, projectHours } from './clock.js';
import type { SlaTarget } from './policies.js';

// The SLA timers, swept as scheduled messages are (src/modules/messages/scheduled.ts): each
// `SlaTimer` row is a durable timer; every process running workers reads the due ones every
// TIMER_SWEEP_INTERVAL. A timer fires by a conditional update (pending → fired, at the deadline it
// was read with) inside the transaction that appends its `sla.warning` or `sla.breach` event, so:
// two nodes on the same row, the second waits for the first and matches nothing; a node killed
// before its commit leaves the row pending for the next sweep. Before firing, the request's SLA
// is computed again from its present state in that transaction: a target met meanwhile (the reply
// committed a moment before the deadline, its event not read yet) cancels the timer instead, and a
// deadline that moved re-arms it.

export class SlaTimers {
  /** Called in the firing transaction once the timer is claimed (tests stop a node there). */
  afterClaim: (tx: Tx, timer: SlaTimer) => Promise<void> = async () => {};

  constructor(
    private db: Db,
    private events: EventLog,
    private logger: Logger,
    private sweepIntervalMs: number,
  ) {}

  /** Fires every due timer; answers how many this call fired. Safe on any number of nodes at once. */
  async fireDue(now = new Date(), batch = 100): Promise<number> {
    const due = await this.db.slaTimer.findMany({
      where: { status: 'pending', due_at: { lte: now } },
      orderBy: [{ due_at: 'asc' }, { id: 'asc' }],
      take: batch,
    });
    let fired = 0;
    for (const timer of due) {
      try {
        if (await this.fireOne(timer)) fired++;
      } catch (error) {
        this.logger.error({ err: error, slaTimer: timer.id }, 'SLA timer failed; the next sweep tries again');
      }
    }
    return fired;
  }

  /** True when this call fired the timer. */
  async fireOne(timer: SlaTimer): Promise<boolean> {
    return transactionWithRetry(this.events, async (tx, emit) => {
      const request = await tx.request.findUnique({ where: { id_project_request_id: { id_project: timer.id_project, request_id: timer.request_id } } });
      const claim = { id: timer.id, status: 'pending', due_at: timer.due_at };
      if (!request) {
        await tx.slaTimer.updateMany({ where: claim, data: { status: 'cancelled' } });
        return false;
      }
      const policies = await tx.slaPolicy.findMany({ where: { id_project: timer.id_project } });
      const state = await evaluate(tx, request, policies, await projectHours(tx, timer.id_project));
      const target = timer.target as SlaTarget;
      const stillDue = state.policy?.id === timer.policyId && !state.met.includes(target) && state.due[target]?.getTime() === timer.target_due_at.getTime();
      if (!stillDue) {
        // Met, or its deadline moved: the row follows the request's present SLA.
        if (await applySla(tx, request, state)) {
          await emit({ projectId: timer.id_project, name: 'sla.update', subject: request.id, payload: { request_id: request.request_id } });
        }
        await tx.slaTimer.updateMany({ where: claim, data: { status: 'cancelled' } });
        return false;
      }
      const claimed = await tx.slaTimer.updateMany({ where: claim, data: { status: 'fired', fired_at: new Date() } });
      if (!claimed.count) return false;
      if (timer.kind === 'breach') {
        const sla = await tx.requestSla.findUnique({ where: { id_project_request_id: { id_project: timer.id_project, request_id: timer.request_id } } });
        if (sla && !sla.breached.includes(target)) {
          await tx.requestSla.update({ where: { id_project_request_id: { id_project: timer.id_project, request_id: timer.request_id } }, data: { breached: { push: target } } });
        }
        await tx.slaBreach.create({
          data: {
            id_project: timer.id_project,
            request_id: timer.request_id,
            target,
            policyId: timer.policyId,
            due_at: timer.target_due_at,
            departmentId: request.departmentId,
            agents: request.participatingAgents,
          },
        });
      }
      await emit({
        projectId: timer.id_project,
        name: timer.kind === 'breach' ? 'sla.breach' : 'sla.warning',
        subject: request.id,
        payload: { request_id: request.request_id, target, due_at: timer.target_due_at.toISOString(), policy_id: timer.policyId, policy_name: state.policy?.name ?? null },
      });
      await this.afterClaim(tx, timer);
      return true;
    });
  }

  /** The sweep beside this process's workers: once at start, then every interval. */
  backgroundTask(): BackgroundTask {
    return periodicSweep({
      name: 'sla-timers',
      intervalMs: this.sweepIntervalMs,
      sweep: () => this.fireDue(),
      logger: this.logger,
      failure: 'SLA timer sweep failed',
    });
  }
}
