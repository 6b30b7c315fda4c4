import type { Db } from '../../infra/database.js';
import type { EventLog } from '../../infra/event-log.js';
import type { TeammateRecord } from '../teammates/service.js';
import { roleAtLeast } from '../teammates/roles.js';
import type { RequestService } from './service.js';

// Unread counts: each teammate marks up to when they have read a request (`RequestSeen`); the
// request's `unread` for them counts the messages others wrote after that (all of them before
// the first mark). Read for a whole page in one statement; a message post changes nothing here
// (its only cost is the per-sender tally a trigger keeps, see `unread`).

/** Whether the member has unread counts: teammates (agents and up); end users and bots do not. */
export const hasUnread = (member: TeammateRecord | null): member is TeammateRecord => !!member && roleAtLeast(member.role, 'agent');

export class SeenService {
  constructor(
    private db: Db,
    private events: EventLog,
    private requests: RequestService,
  ) {}

  /**
   * Records that the member has read the request up to now (never moving back) and logs
   * `request.seen`, which reaches only the member's own `projectRequests` subscriptions.
   */
  async markSeen(projectId: string, member: TeammateRecord, requestId: string) {
    const request = await this.requests.get(projectId, member, requestId);
    await this.events.transaction(async (tx, emit) => {
      const now = new Date();
      await tx.$executeRaw`
        INSERT INTO "RequestSeen" ("id_project", "request_id", "id_user", "seenAt")
        VALUES (${projectId}, ${requestId}, ${member.id_user}, ${now})
        ON CONFLICT ("id_project", "request_id", "id_user")
        DO UPDATE SET "seenAt" = greatest("RequestSeen"."seenAt", excluded."seenAt")`;
      await emit({ projectId, name: 'request.seen', subject: request.id, payload: { request_id: requestId, id_user: member.id_user } });
    });
    return request;
  }

  /**
   * Unread counts of one user for requests of one project: messages from others since their mark.
   * Never marked: every message from others, summed from the request's per-sender tally (kept by
   * triggers on "Message", migration request_message_tally) rather than counted, which had
   * scanned the whole conversation (a request of 100,000 messages: 20 to 60 ms on each read of
   * it). Marked: the messages after the mark, through the (project, request, createdAt) index.
   */
  async unread(projectId: string, userId: string, requestIds: string[]): Promise<Map<string, number>> {
    if (!requestIds.length) return new Map();
    const rows = await this.db.$queryRaw<Array<{ request_id: string; unread: number }>>`
      SELECT k."request_id", CASE WHEN s."seenAt" IS NULL THEN (
        SELECT COALESCE(sum(t."messages"), 0)::int FROM "RequestMessageTally" t
        WHERE t."id_project" = ${projectId} AND t."request_id" = k."request_id" AND t."sender" <> ${userId}
      ) ELSE (
        SELECT count(*)::int FROM "Message" m
        WHERE m."id_project" = ${projectId} AND m."request_id" = k."request_id"
          AND m."createdAt" > s."seenAt" AND m."sender" <> ${userId}
      ) END AS "unread"
      FROM unnest(${requestIds}::text[]) AS k("request_id")
      LEFT JOIN "RequestSeen" s ON s."id_project" = ${projectId} AND s."request_id" = k."request_id" AND s."id_user" = ${userId}`;
    return new Map(rows.map((r) => [r.request_id, r.unread]));
  }
}
