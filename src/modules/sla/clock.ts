import type { Request, SlaPolicy } from '../../generated/prisma/client.js';
import type { Db, Tx } from '../../infra/database.js';
import { parseOperatingHours, type OperatingHours } from '../projects/operating-hours.js';
import { isOpen } from '../requests/states.js';
import { matchPolicy, type SlaTarget } from './policies.js';
import { addWorkingTime } from './working-time.js';

// A request's SLA, computed from the request as it is now (never from the events that led there),
// so computing it again, on any node and at any time, gives the same answer:
// - first response: due the target after the request was created; met by a teammate's first
//   message (the request's `first_response_at`).
// - next response: once first answered, each visitor message that follows a teammate's reply
//   starts the clock again; met by the next teammate message.
// - resolution: due the target after creation; met when the request is closed.
// Time counts in the project's operating hours when they are on (working-time.ts).

/** The warning fires at this share of a target's time. */
export const warningShare = 0.8;

export interface SlaState {
  policy: SlaPolicy | null;
  due: Record<SlaTarget, Date | null>;
  /** When the warning of each target with a due falls. */
  warnAt: Record<SlaTarget, Date | null>;
  met: SlaTarget[];
}

type Reader = Db | Tx;

export async function projectHours(db: Reader, projectId: string): Promise<OperatingHours | null> {
  const project = await db.project.findUnique({ where: { id: projectId }, select: { activeOperatingHours: true, operatingHours: true } });
  if (!project?.activeOperatingHours || !project.operatingHours) return null;
  try {
    return parseOperatingHours(project.operatingHours);
  } catch {
    return null;
  }
}

/** The first visitor message after the last teammate reply, once the request was first answered. */
async function awaitingSince(db: Reader, request: Request): Promise<Date | null> {
  if (!request.first_response_at) return null;
  const rows = await db.$queryRaw<Array<{ since: Date | null }>>`
    WITH team AS (
      SELECT "id_user" FROM "ProjectUser" WHERE "id_project" = ${request.id_project} AND "role" IN ('owner', 'admin', 'agent')
    ), last_reply AS (
      SELECT max(m."createdAt") AS at FROM "Message" m
      WHERE m."id_project" = ${request.id_project} AND m."request_id" = ${request.request_id} AND NOT m."hidden"
        AND m."sender" IN (SELECT "id_user" FROM team)
    )
    SELECT min(m."createdAt") AS since FROM "Message" m, last_reply
    WHERE m."id_project" = ${request.id_project} AND m."request_id" = ${request.request_id} AND NOT m."hidden"
      AND m."createdAt" > coalesce(last_reply.at, ${request.first_response_at})
      AND m."sender" NOT IN (SELECT "id_user" FROM team) AND left(m."sender", 4) <> 'bot_' AND m."sender" <> 'system'`;
  return rows[0]?.since ?? null;
}

/** The request's SLA under `policies` (the project's) and `hours`. */
export async function evaluate(db: Reader, request: Request, policies: SlaPolicy[], hours: OperatingHours | null): Promise<SlaState> {
  const policy = matchPolicy(policies, request.departmentId, request.priority);
  const none = { first_response: null, next_response: null, resolution: null };
  if (!policy) return { policy: null, due: { ...none }, warnAt: { ...none }, met: [] };
  const due: Record<SlaTarget, Date | null> = { ...none };
  const warnAt: Record<SlaTarget, Date | null> = { ...none };
  const met: SlaTarget[] = [];
  const arm = (target: SlaTarget, from: Date, seconds: number | null) => {
    if (seconds == null) return;
    due[target] = addWorkingTime(hours, from, seconds);
    warnAt[target] = addWorkingTime(hours, from, seconds * warningShare);
  };
  arm('first_response', request.createdAt, policy.first_response_seconds);
  if (policy.first_response_seconds != null && request.first_response_at) met.push('first_response');
  arm('resolution', request.createdAt, policy.resolution_seconds);
  if (policy.resolution_seconds != null && !isOpen(request.status)) met.push('resolution');
  if (policy.next_response_seconds != null && isOpen(request.status)) {
    const since = await awaitingSince(db, request);
    if (since) arm('next_response', since, policy.next_response_seconds);
    else if (request.first_response_at) met.push('next_response');
  }
  return { policy, due, warnAt, met };
}
