import { Prisma } from '../../generated/prisma/client.js';
import type { Db } from '../../infra/database.js';
import type { Lead } from '../../generated/prisma/client.js';
import type { Listing } from '../../listing.js';

// The lead list is one parameterised SQL statement, page and count together: segment filters reach
// into JSON attributes and the searches need prefix and full-text matching, which Prisma's where
// clause cannot say as well.

export const leadSortFields = ['createdAt', 'updatedAt', 'fullname', 'email', 'lead_id', 'company'] as const;
export type LeadSortField = (typeof leadSortFields)[number];

export interface LeadSearch {
  /** The beginning of the e-mail (or all of it), any case. */
  email?: string;
  /** Words that must each begin a word of the name, e-mail or company. */
  full_text?: string;
  /** Tags a lead must all carry. */
  tags?: string[];
  /** Extra condition, e.g. a segment's filters. */
  condition?: Prisma.Sql;
}

/**
 * The words of name, e-mail (split at @ and dots) and company. Migration
 * 20261122000415_lead_list_indexes indexes exactly this expression; change both together.
 */
const contactWords = Prisma.raw(
  `to_tsvector('simple'::regconfig, coalesce("fullname", '') || ' ' || translate(coalesce("email", ''), '@.', '  ') || ' ' || coalesce("company", ''))`,
);

/** Every word of the search as a prefix, all required: "carla acm" finds Carla Bianchi of Acme. */
function prefixQuery(text: string): string | null {
  const words = text.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean).slice(0, 16);
  return words.length ? words.map((w) => `${w}:*`).join(' & ') : null;
}

/** The text as a LIKE pattern that matches it literally. */
const escapeLike = (text: string) => text.replace(/[\\%_]/g, '\\$&');

function whereClause(projectId: string, search: LeadSearch): Prisma.Sql {
  const conditions = [Prisma.sql`"id_project" = ${projectId}`];
  // A prefix of lower("email"): migration 20261122010601_lead_email_prefix_index indexes it.
  if (search.email) conditions.push(Prisma.sql`lower("email") LIKE ${`${escapeLike(search.email.toLowerCase())}%`}`);
  if (search.full_text) {
    const query = prefixQuery(search.full_text);
    // A search with no word in it (only punctuation) matches nothing rather than everything.
    conditions.push(query ? Prisma.sql`${contactWords} @@ to_tsquery('simple'::regconfig, ${query})` : Prisma.sql`FALSE`);
  }
  if (search.tags?.length) conditions.push(Prisma.sql`"tags" @> ${search.tags}::text[]`);
  if (search.condition) conditions.push(search.condition);
  return Prisma.join(conditions, ' AND ');
}

/** A lead as `to_json` writes a "Lead" row: timestamps (UTC, no zone) are still text. */
type LeadJson = Omit<Lead, 'createdAt' | 'updatedAt'> & { createdAt: string | Date; updatedAt: string | Date };

/**
 * One page of a project's leads matching `search`, and how many match in all: one statement, one
 * round trip. The page comes back as a single JSON array, parsed in one go, rather than as rows
 * Prisma converts value by value (most of the CPU a list used to cost in the server).
 */
export async function findLeads(db: Db, projectId: string, search: LeadSearch, listing: Listing<LeadSortField>) {
  const where = whereClause(projectId, search);
  // Both names come from closed lists, so they may be written into the statement.
  const column = Prisma.raw(`"${listing.sortField}"`);
  const order = Prisma.raw(listing.direction === 1 ? 'ASC' : 'DESC');
  const orderBy = Prisma.sql`ORDER BY ${column} ${order}, "id" ${order}`;
  const window = Prisma.sql`LIMIT ${listing.limit} OFFSET ${listing.page * listing.limit}`;
  const statement = search.condition
    ? // A segment's filters are evaluated row by row, with no index to help: they run once, over
      // the project's leads, into a narrow list (id and sort key) that gives both the total and
      // the ids of the page.
      Prisma.sql`
        WITH "matching" AS MATERIALIZED (SELECT "id", ${column} FROM "Lead" WHERE ${where})
        SELECT (SELECT count(*) FROM "matching")::int AS "count",
          (SELECT coalesce(json_agg("page" ${orderBy}), '[]')::text FROM "Lead" AS "page"
            WHERE "page"."id" = ANY(ARRAY(SELECT "id" FROM "matching" ${orderBy} ${window}))) AS "leads"`
    : // Otherwise the ids of the page come from an index in sort order (or, for a search, from its
      // index): the sort indexes end with "id", so skipping to a deep page reads index entries
      // only, and just the page's rows are fetched, by primary key (an array, so the planner
      // cannot turn it into a join over every lead). The total is a count of its own, in the same
      // statement.
      Prisma.sql`
        SELECT (SELECT count(*) FROM "Lead" WHERE ${where})::int AS "count",
          (SELECT coalesce(json_agg("page" ${orderBy}), '[]')::text FROM "Lead" AS "page"
            WHERE "page"."id" = ANY(ARRAY(SELECT "id" FROM "Lead" WHERE ${where} ${orderBy} ${window}))) AS "leads"`;
  const [{ count, leads }] = await db.$queryRaw<Array<{ count: number; leads: string }>>(statement);
  const page = JSON.parse(leads) as LeadJson[];
  for (const lead of page) {
    lead.createdAt = utc(lead.createdAt as string);
    lead.updatedAt = utc(lead.updatedAt as string);
  }
  return { count, leads: page as Lead[] };
}

/** A `timestamp(3)` as `to_json` writes it ("2024-05-01T10:00:00.123", UTC by convention). */
const utc = (text: string) => new Date(`${text}Z`);
