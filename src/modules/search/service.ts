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
// `full_text` does. Only what the caller may see: requests (and their messages) by the
// request-visibility rule; leads are read by every agent.
//
// Ranking (ts_rank, newest first among equals) reads each match's vector, so it is bounded: when
// a search matches at most `rankWindow` rows of a kind, all of them are ranked (found through the
// GIN index); a search matching more (a common word in a big project) ranks its `rankWindow`
// newest matches, found by walking the (project, createdAt) index back from now. PostgreSQL's
// planner cannot tell the two cases apart for prefix queries (it estimates every `word:*` alike):
// a first statement with no order reads the GIN index, and how many rows it found decides
// (`ranked`). Measured with 100,000 messages: ranking every match of a common word took 190 ms
// p95 (embedded); walking the index for a rare word, as the planner chose, 45 ms.

/** How many matches of each kind are ranked at most. */
const rankWindow = 200;

const searchInput = z.object({
  q: z.string({ message: 'is required' }).trim().min(1, 'is required').max(200, 'must be at most 200 characters'),
  limit: z.number().int().min(1, 'must be 1 to 50').max(50, 'must be 1 to 50').default(10),
});

export interface SearchResults {
  requests: Request[];
  messages: Message[];
  leads: Lead[];
}

/** Rows of `ids`, in that order (the ranking's). */
function inOrder<T extends { id: string }>(ids: string[], rows: T[]): T[] {
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.map((id) => byId.get(id)).filter((r): r is T => !!r);
}

/** A kind of record to search: SQL fragments over its table (and what it joins). */
interface Searched {
  from: Prisma.Sql;
  where: Prisma.Sql;
  id: Prisma.Sql;
  vector: Prisma.Sql;
  query: Prisma.Sql;
  createdAt: Prisma.Sql;
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
    const prefixes = Prisma.sql`to_tsquery('simple'::regconfig, ${words})`;
    const joinRequest = Prisma.sql`JOIN "Request" r ON r."id_project" = m."id_project" AND r."request_id" = m."request_id"`;
    const [requestIds, messageIds, leadIds] = await Promise.all([
      this.ranked(limit, {
        from: Prisma.sql`"Request" r`,
        where: Prisma.sql`r."id_project" = ${projectId} AND r."search" @@ ${stems} AND ${visible}`,
        id: Prisma.sql`r."id"`,
        vector: Prisma.sql`r."search"`,
        query: stems,
        createdAt: Prisma.sql`r."createdAt"`,
      }),
      // The visibility rule reads the message's request; for a caller who sees every request
      // (admins) the request is not joined at all.
      this.ranked(limit, {
        from: scope.kind === 'all' ? Prisma.sql`"Message" m` : Prisma.sql`"Message" m ${joinRequest}`,
        where: Prisma.sql`m."id_project" = ${projectId} AND m."search" @@ ${stems}${scope.kind === 'all' ? Prisma.empty : Prisma.sql` AND ${visible}`}`,
        id: Prisma.sql`m."id"`,
        vector: Prisma.sql`m."search"`,
        query: stems,
        createdAt: Prisma.sql`m."createdAt"`,
      }),
      this.ranked(limit, {
        from: Prisma.sql`"Lead" l`,
        where: Prisma.sql`l."id_project" = ${projectId} AND ${contactWords} @@ ${prefixes}`,
        id: Prisma.sql`l."id"`,
        vector: contactWords,
        query: prefixes,
        createdAt: Prisma.sql`l."createdAt"`,
      }),
    ]);
    const [requests, messages, leads] = await Promise.all([
      requestIds.length ? this.db.request.findMany({ where: { id: { in: requestIds } } }) : [],
      messageIds.length ? this.db.message.findMany({ where: { id: { in: messageIds } } }) : [],
      leadIds.length ? this.db.lead.findMany({ where: { id: { in: leadIds } } }) : [],
    ]);
    return { requests: inOrder(requestIds, requests), messages: inOrder(messageIds, messages), leads: inOrder(leadIds, leads) };
  }

  /** The ids of the best `limit` matches (see the top of this file). */
  private async ranked(limit: number, s: Searched): Promise<string[]> {
    const columns = Prisma.sql`${s.id} AS "id", ts_rank(${s.vector}, ${s.query}) AS "rank", ${s.createdAt} AS "createdAt"`;
    // In no order and no further than one row past the window: PostgreSQL reads the GIN index.
    const all = await this.db.$queryRaw<Ranked[]>`SELECT ${columns} FROM ${s.from} WHERE ${s.where} LIMIT ${rankWindow + 1}`;
    if (all.length <= rankWindow) return best(all, limit);
    const recent = await this.db.$queryRaw<Ranked[]>`
      SELECT ${columns} FROM ${s.from} WHERE ${s.where} ORDER BY ${s.createdAt} DESC LIMIT ${rankWindow}`;
    return best(recent, limit);
  }
}

interface Ranked {
  id: string;
  rank: number;
  createdAt: Date;
}

/** Best first: by rank, then newest, then by id (a stable order). */
function best(rows: Ranked[], limit: number): string[] {
  return rows
    .sort((a, b) => b.rank - a.rank || b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .slice(0, limit)
    .map((r) => r.id);
}
