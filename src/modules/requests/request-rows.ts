import { randomUUID } from 'node:crypto';
import { badInput, notFound } from '../../errors.js';
import { Prisma, type Request } from '../../generated/prisma/client.js';
import type { Db, Tx } from '../../infra/database.js';
import type { Emit, EventLog } from '../../infra/event-log.js';
import { isRetryable } from '../../infra/database-errors.js';
import type { TeammateRecord } from '../teammates/service.js';
import type { Viewer } from './access.js';

// Reading and locking request rows, and the transaction retry every request writer shares.

/** `support-group-<UUID>`; a timestamp or another token may replace the UUID. */
export const requestIdPattern = /^support-group-[A-Za-z0-9][A-Za-z0-9_.:-]{0,200}$/;

export function checkRequestId(requestId: string) {
  if (!requestIdPattern.test(requestId)) {
    throw badInput('request_id', 'request_id: must look like support-group-<UUID>');
  }
}

export const newRequestId = () => `support-group-${randomUUID()}`;

export function viewerOf(member: TeammateRecord): Viewer {
  return { teammateId: member.id, userId: member.id_user, role: member.role };
}

export function fullName(member: TeammateRecord): string {
  const name = [member.user.firstname, member.user.lastname].filter(Boolean).join(' ').trim();
  return name || (member.user.anonymous ? 'Guest' : member.user.email ?? 'Teammate');
}

export async function findRequest(db: Db | Tx, projectId: string, requestId: string) {
  const request = await db.request.findUnique({ where: { id_project_request_id: { id_project: projectId, request_id: requestId } } });
  if (!request) throw notFound('request');
  return request;
}

/** The columns of a Request row as the client reads them (the generated search vector is not one). */
const requestColumns = Prisma.raw(Object.values(Prisma.RequestScalarFieldEnum).map((c) => `"${c}"`).join(', '));

/** The request row, locked until the transaction ends, so changes to one request never interleave. */
export async function lockRequest(tx: Tx, projectId: string, requestId: string): Promise<Request | null> {
  const rows = await tx.$queryRaw<Request[]>`
    SELECT ${requestColumns} FROM "Request" WHERE "id_project" = ${projectId} AND "request_id" = ${requestId} FOR UPDATE`;
  return rows[0] ?? null;
}

/**
 * One event-log transaction, run again when PostgreSQL aborts it for a deadlock or when
 * `again` says the failure was a lost race (e.g. two first messages creating one request).
 */
export async function transactionWithRetry<T>(
  events: EventLog,
  work: (tx: Tx, emit: Emit) => Promise<T>,
  again: (error: unknown) => boolean = () => false,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await events.transaction(work);
    } catch (error) {
      if (attempt >= 4 || !(isRetryable(error) || again(error))) throw error;
    }
  }
}
