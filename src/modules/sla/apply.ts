import type { Request } from '../../generated/prisma/client.js';
import type { Db, Tx } from '../../infra/database.js';
import type { SlaState } from './clock.js';
import { slaTargets, type SlaTarget } from './policies.js';

// Writes a computed SLA: the request's row (policy, deadlines, targets met) and its timers. A
// timer whose deadline did not change is left as it is, fired or not, so computing again never
// fires anything twice; a deadline that moved arms it again; a target met or gone cancels it.

type Writer = Db | Tx;
export type TimerKind = 'warning' | 'breach';

async function arm(db: Writer, request: Request, target: SlaTarget, kind: TimerKind, dueAt: Date, targetDueAt: Date, policyId: string) {
  const key = { id_project: request.id_project, request_id: request.request_id, target, kind };
  const existing = await db.slaTimer.findUnique({ where: { id_project_request_id_target_kind: key } });
  if (!existing) {
    await db.slaTimer.createMany({ data: [{ ...key, due_at: dueAt, target_due_at: targetDueAt, policyId }], skipDuplicates: true });
    return;
  }
  if (existing.target_due_at.getTime() === targetDueAt.getTime() && existing.policyId === policyId && existing.status !== 'cancelled') return;
  await db.slaTimer.updateMany({
    where: { id: existing.id, target_due_at: existing.target_due_at, status: existing.status },
    data: { due_at: dueAt, target_due_at: targetDueAt, policyId, status: 'pending', fired_at: null },
  });
}

/** Cancels the pending timers of the request's targets not in `keep`. */
async function cancelOthers(db: Writer, request: Request, keep: SlaTarget[]) {
  await db.slaTimer.updateMany({
    where: { id_project: request.id_project, request_id: request.request_id, status: 'pending', target: { notIn: keep } },
    data: { status: 'cancelled' },
  });
}

const time = (d: Date | null) => d?.getTime() ?? null;

/** Writes the SLA; true when what the request shows of it changed (policy, deadlines, targets met). */
export async function applySla(db: Writer, request: Request, state: SlaState): Promise<boolean> {
  const key = { id_project: request.id_project, request_id: request.request_id };
  const before = await db.requestSla.findUnique({ where: { id_project_request_id: key } });
  const changed =
    (before?.policyId ?? null) !== (state.policy?.id ?? null) ||
    (!!state.policy &&
      (before?.policyName !== state.policy.name ||
        time(before.firstResponseDueAt) !== time(state.due.first_response) ||
        time(before.nextResponseDueAt) !== time(state.due.next_response) ||
        time(before.resolutionDueAt) !== time(state.due.resolution) ||
        [...before.met].sort().join() !== [...state.met].sort().join()));
  if (!state.policy) {
    await cancelOthers(db, request, []);
    if (!before?.policyId) return false;
    await db.requestSla.updateMany({
      where: key,
      data: { policyId: null, policyName: null, firstResponseDueAt: null, nextResponseDueAt: null, resolutionDueAt: null, met: [] },
    });
    return changed;
  }
  const dues = { firstResponseDueAt: state.due.first_response, nextResponseDueAt: state.due.next_response, resolutionDueAt: state.due.resolution };
  await db.requestSla.upsert({
    where: { id_project_request_id: key },
    create: { ...key, policyId: state.policy.id, policyName: state.policy.name, ...dues, met: state.met },
    update: { policyId: state.policy.id, policyName: state.policy.name, ...dues, met: state.met },
  });
  const running = slaTargets.filter((t) => state.due[t] && !state.met.includes(t));
  await cancelOthers(db, request, running);
  for (const target of running) {
    await arm(db, request, target, 'warning', state.warnAt[target]!, state.due[target]!, state.policy.id);
    await arm(db, request, target, 'breach', state.due[target]!, state.due[target]!, state.policy.id);
  }
  return changed;
}
