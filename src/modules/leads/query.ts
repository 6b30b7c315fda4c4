import { Prisma } from '../../generated/prisma/client.js';
import type { Db } from '../../infra/database.js';
import type { Lead } from '../../generated/prisma/client.js';
import type { Listing } from '../../listing.js';

// The lead list is one parameterised SQL statement (plus its count): segment filters reach into
// JSON attributes and the searches need ILIKE and full-text matching, which Prisma's where clause
// cannot say as well.

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

/** One page of a project's leads matching `search`, and how many match in all. */
export async function findLeads(db: Db, projectId: string, search: LeadSearch, listing: Listing<LeadSortField>) {
  const where = whereClause(projectId, search);
  // Both names come from closed lists, so they may be written into the statement.
  const column = Prisma.raw(`"${listing.sortField}"`);
  const order = Prisma.raw(listing.direction === 1 ? 'ASC' : 'DESC');
  const page = Prisma.sql`ORDER BY ${column} ${order}, "id" ${order} LIMIT ${listing.limit} OFFSET ${listing.page * listing.limit}`;
  const countAll = async () =>
    (await db.$queryRaw<{ count: number }[]>`SELECT count(*)::int AS count FROM "Lead" WHERE ${where}`)[0].count;
  if (search.condition) {
    // A segment's filters are evaluated row by row, with no index to help: one pass over the
    // project's leads gives both the page and the total.
    const rows = await db.$queryRaw<Array<Lead & { matching: number }>>`
      SELECT *, (count(*) OVER ())::int AS "matching" FROM "Lead" WHERE ${where} ${page}`;
    const count = rows.length ? rows[0].matching : listing.page === 0 ? 0 : await countAll();
    return { count, leads: rows.map(({ matching: _, ...lead }) => lead) };
  }
  // Otherwise the page comes from an index in sort order and the count from an index-only scan.
  const [leads, count] = await Promise.all([db.$queryRaw<Lead[]>`SELECT * FROM "Lead" WHERE ${where} ${page}`, countAll()]);
  return { count, leads };
}
