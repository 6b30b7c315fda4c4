import { z } from 'zod';
import { parseInput } from '../../errors.js';
import { Prisma, type Lead, type Message, type Request } from '../../generated/prisma/client.js';
import type { Db } from '../../infra/database.js';
import { contactWords, prefixQuery } from '../leads/query.js';
import { scopeCondition, scopeFor } from '../requests/access.js';
import { viewerOf } from '../requests/store.js';
import type { TeammateRecord } from '../teammates/service.js';

// GET /:project_id/search: requests, messages and leads matching every word of `q`, each word as a
// prefix ("refun" finds "refunds"). Messages and requests are matched on English stems (stored
// tsvectors that PostgreSQL writes with the row, so a message is found as soon as it is
// committed), leads on the words of their name, e-mail and company, as the lead list's
// `full_text` does. Ranked by ts_rank, newest first among equals. Only what the caller may see:
// requests (and their messages) by the request-visibility rule; leads are read by every agent.

const searchInput = z.object({
  q: z.string().trim().min(1, 'is required').max(200, 'must be at most 200 characters'),
  limit: z.number().int().min(1, 'must be 1 to 50').max(50, 'must be 1 to 50').default(10),
});

export interface SearchResults {
  requests: Request[];
  messages: Message[];
  leads: Lead[];
}

/** Rows of `ids`, in that order (the ranking's). */
function inOrder<T extends { id: string }>(ids: Array<{ id: string }>, rows: T[]): T[] {
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.map(({ id }) => byId.get(id)).filter((r): r is T => !!r);
}

export class SearchService {
  constructor(private db: Db) {}

  async search(projectId: string, member: TeammateRecord, input: unknown): Promise<SearchResults> {
    const { q, limit } = parseInput(searchInput, input);
    const words = prefixQuery(q);
    if (!words) return { requests: [], messages: [], leads: [] };
    const scope = await scopeFor(this.db, projectId, viewerOf(member));
    const visible = scopeCondition(scope);
    const stems = Prisma.sql`to_tsquery('english'::regconfig, ${words})`;
    const [requestIds, messageIds, leadIds] = await Promise.all([
      this.db.$queryRaw<Array<{ id: string }>>`
        SELECT r."id" FROM "Request" r, ${stems} AS q
        WHERE r."id_project" = ${projectId} AND r."search" @@ q AND ${visible}
        ORDER BY ts_rank(r."search", q) DESC, r."createdAt" DESC, r."id" LIMIT ${limit}`,
      // The visibility rule reads the message's request; for a caller who sees every request
      // (admins) the request is not joined at all.
      scope.kind === 'all'
        ? this.db.$queryRaw<Array<{ id: string }>>`
            SELECT m."id" FROM "Message" m, ${stems} AS q
            WHERE m."id_project" = ${projectId} AND m."search" @@ q
            ORDER BY ts_rank(m."search", q) DESC, m."createdAt" DESC, m."id" LIMIT ${limit}`
        : this.db.$queryRaw<Array<{ id: string }>>`
            SELECT m."id" FROM "Message" m
              JOIN "Request" r ON r."id_project" = m."id_project" AND r."request_id" = m."request_id", ${stems} AS q
            WHERE m."id_project" = ${projectId} AND m."search" @@ q AND ${visible}
            ORDER BY ts_rank(m."search", q) DESC, m."createdAt" DESC, m."id" LIMIT ${limit}`,
      this.db.$queryRaw<Array<{ id: string }>>`
        SELECT l."id" FROM "Lead" l, to_tsquery('simple'::regconfig, ${words}) AS q
        WHERE l."id_project" = ${projectId} AND ${contactWords} @@ q
        ORDER BY ts_rank(${contactWords}, q) DESC, l."createdAt" DESC, l."id" LIMIT ${limit}`,
    ]);
    const [requests, messages, leads] = await Promise.all([
      requestIds.length ? this.db.request.findMany({ where: { id: { in: requestIds.map((r) => r.id) } } }) : [],
      messageIds.length ? this.db.message.findMany({ where: { id: { in: messageIds.map((r) => r.id) } } }) : [],
      leadIds.length ? this.db.lead.findMany({ where: { id: { in: leadIds.map((r) => r.id) } } }) : [],
    ]);
    return { requests: inOrder(requestIds, requests), messages: inOrder(messageIds, messages), leads: inOrder(leadIds, leads) };
  }
}
