import { isAuditedEvent, type AuditDetail } from '../../events.js';
import type { Db, Tx } from '../../infra/database.js';
import { cuid } from '../../infra/ids.js';
import { currentRequestActor } from '../../infra/request-scope.js';

// The one place audit entries are written. The event log calls `recordAudited` with every
// transaction's events as it appends them, so an entry commits with the change it records (or not
// at all), and an event becomes audited by one line: `audit: true` in src/events.ts. Who acted and
// from where come from the request the work runs for (the context notes the authenticated caller);
// work outside a request (a background job) is the `system`.

/** An event as the log appends it, with the audit detail its emitter gave. */
export interface AuditedEvent {
  projectId: string;
  name: string;
  subject: string;
  payload: Record<string, unknown>;
  audit?: AuditDetail;
  createdAt: Date;
}

/** The kind of record an action is about: the event name's first part (`project_user.update` → `project_user`). */
export const targetTypeOf = (action: string) => action.slice(0, action.lastIndexOf('.')) || action;

/** Writes the audit entries of the audited events among `events`, in the caller's transaction. */
export async function recordAudited(tx: Tx | Db, events: AuditedEvent[]) {
  const audited = events.filter((event) => isAuditedEvent(event.name));
  if (!audited.length) return;
  const actor = currentRequestActor();
  await tx.auditEntry.createMany({
    data: audited.map((event) => ({
      id: cuid(),
      id_project: event.projectId,
      action: event.name,
      target: event.subject,
      targetType: targetTypeOf(event.name),
      actorKind: actor?.kind ?? 'system',
      actorId: actor?.id ?? null,
      actorName: actor?.name ?? null,
      address: actor?.address ?? null,
      before: json(event.audit?.before),
      after: json(event.audit?.after),
      details: event.payload as object,
      createdAt: event.createdAt,
    })),
  });
}

function json(value: unknown): object | undefined {
  return value === undefined || value === null ? undefined : (JSON.parse(JSON.stringify(value)) as object);
}

/** The fields `fields` of a record, as an audit entry's before or after shows them. */
export function auditFields<T extends object>(record: T, fields: readonly string[]): Record<string, unknown> {
  const picked: Record<string, unknown> = {};
  for (const field of fields) if (field in record) picked[field] = (record as Record<string, unknown>)[field];
  return picked;
}
