import { z } from 'zod';
import { parseInput } from '../../errors.js';
import { Prisma, type Lead, type Request } from '../../generated/prisma/client.js';
import type { Db } from '../../infra/database.js';
import { contactWords, prefixQuery } from '../leads/query.js';
import { messagesWithRequests } from '../messages/with-requests.js';
import { scopeCondition, scopeFor } from '../requests/access.js';
import { viewerOf } from '../requests/request-rows.js';
import type { TeammateRecord } from '../teammates/service.js';

// GET /:project_id/search: requests, messages and leads matching every word of `q`, each word as a
// prefix ("refun" finds "refunds"). Messages and requests are matched on English stems (stored
// tsvectors that PostgreSQL writes with the row, so a message is found as soon as it is
// committed), leads on the words of their name, e-mail and company, as the lead list's
// `full_text` does. Only what the caller may see: requests (and their messages) by the
// request-visibility rule; leads are read by every agent.
//
// Ranking (ts_rank, newest first among equals) reads each match's vector, so it is bounded: when
// a search matches at most `rankWindow` rows of a kind, all of them are ranked; a search matching
// more (a common word in a big project) ranks its `rankWindow` newest matches. PostgreSQL's
// planner cannot tell common from rare words in prefix queries (it estimates every `word:*`
// alike), so the statements are chosen by what the previous one found:
// 1. a probe: the project's newest `probeRows` rows, newest first through the (project,
//    createdAt) index, keeping the matches. A word in at least one row in ten is done here;
// 2. a word in at least one row in `probeRows / denseMatches` (0.5%): the walk again, over as many
//    rows as the probe's share says hold the window (half as many again, `walkMax` at most);
// 3. else, and when the walk still fell short, the GIN index, in no order, no further than one
//    row past the window: a rare word is done;
// 4. else (a word too rare to walk to, too common to rank all) every match through the GIN index,
//    sorted by time.
// The answer is the same whichever statement finds the window. Measured (issue 39) over 100,000
// messages of one conversation, 20 words each in 15% of them, two words (2.25% of the rows) at a
// time, PostgreSQL, load average 7 on 2 cores: statement 3 alone took 48-85 ms (the GIN index
// reads the two words' posting lists whole, 15,000 rows each), 4 after it 55-90 ms more; the walk
// over the 9,000 newest rows that hold the window 8-40 ms.

/** How many matches of each kind are ranked at most. */
const rankWindow = 200;
/** How many of the project's newest rows the probe reads. */
const probeRows = 2_000;
/** Matches among the probe's rows that make the walk worth it. */
const denseMatches = 10;
/** How many of the project's newest rows the walk reads at most. */
const walkMax = 40_000;

const searchInput = z.object({
  q: z.string({ message: 'is required' }).trim().min(1, 'is required').max(200, 'must be at most 200 characters'),
  limit: z.number().int().min(1, 'must be 1 to 50').max(50, 'must be 1 to 50').default(10),
});

export interface SearchResults {
  requests: Request[];
  messages: Awaited<ReturnType<typeof messagesWithRequests>>;
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
  /** As `from`, over the project's `rows` newest rows of the kind only. */
  recent: (rows: number) => Prisma.Sql;
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
        recent: (rows) => Prisma.sql`(${newest('Request', projectId, rows)}) r`,
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
        recent: (rows) => Prisma.sql`(${newest('Message', projectId, rows)}) m${scope.kind === 'all' ? Prisma.empty : Prisma.sql` ${joinRequest}`}`,
        where: Prisma.sql`m."id_project" = ${projectId} AND m."search" @@ ${stems}${scope.kind === 'all' ? Prisma.empty : Prisma.sql` AND ${visible}`}`,
        id: Prisma.sql`m."id"`,
        vector: Prisma.sql`m."search"`,
        query: stems,
        createdAt: Prisma.sql`m."createdAt"`,
      }),
      this.ranked(limit, {
        from: Prisma.sql`"Lead" l`,
        recent: (rows) => Prisma.sql`(${newest('Lead', projectId, rows)}) l`,
        where: Prisma.sql`l."id_project" = ${projectId} AND ${contactWords} @@ ${prefixes}`,
        id: Prisma.sql`l."id"`,
        vector: contactWords,
        query: prefixes,
        createdAt: Prisma.sql`l."createdAt"`,
      }),
    ]);
    const [requests, messages, leads] = await Promise.all([
      requestIds.length ? this.db.request.findMany({ where: { id: { in: requestIds } } }) : [],
      // Each message hit is shown with its request: read together (see with-requests.ts).
      messagesWithRequests(this.db, projectId, messageIds),
      leadIds.length ? this.db.lead.findMany({ where: { id: { in: leadIds } } }) : [],
    ]);
    return { requests: inOrder(requestIds, requests), messages: inOrder(messageIds, messages), leads: inOrder(leadIds, leads) };
  }

  /** The ids of the best `limit` matches (see the top of this file). */
  private async ranked(limit: number, s: Searched): Promise<string[]> {
    const columns = Prisma.sql`${s.id} AS "id", ts_rank(${s.vector}, ${s.query}) AS "rank", ${s.createdAt} AS "createdAt"`;
    const walk = (rows: number) =>
      this.db.$queryRaw<Ranked[]>`SELECT ${columns} FROM ${s.recent(rows)} WHERE ${s.where} ORDER BY ${s.createdAt} DESC LIMIT ${rankWindow}`;
    const probed = await walk(probeRows);
    if (probed.length === rankWindow) return best(probed, limit);
    if (probed.length >= denseMatches) {
      const walked = await walk(Math.min(walkMax, Math.ceil((probeRows * rankWindow * 1.5) / probed.length)));
      if (walked.length === rankWindow) return best(walked, limit);
    }
    // In no order and no further than one row past the window: PostgreSQL reads the GIN index.
    const all = await this.db.$queryRaw<Ranked[]>`SELECT ${columns} FROM ${s.from} WHERE ${s.where} LIMIT ${rankWindow + 1}`;
    if (all.length <= rankWindow) return best(all, limit);
    const recent = await this.db.$queryRaw<Ranked[]>`
      SELECT ${columns} FROM ${s.from} WHERE ${s.where} ORDER BY ${s.createdAt} DESC LIMIT ${rankWindow}`;
    return best(recent, limit);
  }
}

/** The project's `rows` newest rows of a table, newest first (its (project, createdAt) index). */
function newest(table: 'Request' | 'Message' | 'Lead', projectId: string, rows: number): Prisma.Sql {
  return Prisma.sql`SELECT * FROM ${Prisma.raw(`"${table}"`)} WHERE "id_project" = ${projectId} ORDER BY "createdAt" DESC LIMIT ${rows}`;
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
