import { Prisma } from '../../generated/prisma/client.js';
import { prepared, queryRows, type Db } from '../../infra/database.js';
import type { Lead } from '../../generated/prisma/client.js';
import type { Listing } from '../../paging.js';

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
export const contactWords = Prisma.raw(
  `to_tsvector('simple'::regconfig, coalesce("fullname", '') || ' ' || translate(coalesce("email", ''), '@.', '  ') || ' ' || coalesce("company", ''))`,
);

/** Every word of the search as a prefix, all required: "carla acm" finds Carla Bianchi of Acme. */
export function prefixQuery(text: string): string | null {
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

/**
 * The columns of a page: every column of "Lead", timestamps as their text (`toIso` makes them ISO):
 * the driver and the embedded database's client would each turn them into a Date their own way;
 * tags as JSON, which JSON.parse reads, not PostgreSQL's array text, which the driver reads a
 * character at a time (it made a fifth of the bytes a page of 100 leads allocated).
 */
const pageColumns = Prisma.raw(
  Object.values(Prisma.LeadScalarFieldEnum)
    .map((c) =>
      c === 'createdAt' || c === 'updatedAt'
        ? `"page"."${c}"::text AS "${c}"`
        : c === 'tags'
          ? `to_json("page"."tags") AS "tags"`
          : `"page"."${c}"`,
    )
    .join(', '),
);

/** A row of the list statement: a lead of the page (all null when the page is empty) and the list's totals. */
type PageRow = Omit<Lead, 'createdAt' | 'updatedAt'> & {
  createdAt: string | null;
  updatedAt: string | null;
  listVersion: string | null;
  listCount: number | null;
  listTotal: number | null;
};

/**
 * Sort fields whose index is ("id_project", field, "id"): a segment's page can be found by walking
 * it in order, testing leads one by one, and stopping at the page's end.
 */
const walkableSorts = new Set<LeadSortField>(['createdAt', 'updatedAt', 'fullname', 'company']);

/**
 * Walking the sort index pays a primary-key lookup per lead it tests, reading everything in one
 * pass does not: the walk wins while the page ends within about the first fifth of the matches.
 */
const walkFraction = 5;

/**
 * A search through an index (tags, words) reads its matches wherever they are, a walk of the sort
 * index reads about `total / count` leads per match it keeps: the walk wins while
 * `(offset + limit) × total / count × cost` stays within `count`, `cost` being what testing a lead
 * on the walk costs against reading a match (measured: testing a lead's tags, less than reading a
 * match; making a lead's words again to test them, three to four times as much: 4 is used).
 */
function walkPays(search: LeadSearch, kept: KeptCount, end: number): boolean {
  if (kept.total === null || kept.count === 0) return false;
  const cost = search.full_text ? 4 : 1;
  return end * (kept.total / kept.count) * cost <= kept.count;
}

/**
 * An exact count of a list, by the lead version it holds for (see `findLeads`); for a search, also
 * the project's leads at that version (`total`), which tells how far a walk goes to fill a page.
 */
interface KeptCount {
  version: string;
  count: number;
  total: number | null;
}

interface CountCache {
  get(key: string): KeptCount | undefined;
  set(key: string, value: KeptCount): void;
}

/** At most this many lists' counts per database: least recently used go first. */
const maxCachedCounts = 2000;

function countCache(): CountCache {
  const entries = new Map<string, KeptCount>();
  return {
    get(key) {
      const entry = entries.get(key);
      if (entry) {
        entries.delete(key);
        entries.set(key, entry);
      }
      return entry;
    },
    set(key, value) {
      entries.delete(key);
      entries.set(key, value);
      if (entries.size > maxCachedCounts) entries.delete(entries.keys().next().value!);
    },
  };
}

const countCaches = new WeakMap<Db, CountCache>();

/**
 * One page of a project's leads matching `search`, and how many match in all: one statement, one
 * round trip. The page's rows come back as plain rows, each also carrying the totals: building
 * JSON in PostgreSQL (json_agg) cost it three times the CPU of sending the rows.
 *
 * Counting is most of a list's database work (every lead of the project, and a segment's filters
 * on each), so exact counts are kept, by the version of the project's leads they were taken at
 * ("LeadListVersion", moved on by triggers in the transaction of any lead write). With a count
 * kept, the statement reads the page and the version, in one snapshot, and not the count: only when
 * the version is not the one the kept count holds for does a second statement count again (with
 * the version it counted at). A count is never reused for leads other than those it counted,
 * whichever server wrote them. A list's condition depends on nothing but the leads (a segment's
 * dates are fixed values), so the same condition at the same version has the same count. The count
 * is left out of the statement, not skipped inside it, because PostgreSQL plans and starts up
 * a subquery it will not run (a search's count, left in, made half of the planning and a third of
 * the running of its list).
 */
export async function findLeads(db: Db, projectId: string, search: LeadSearch, listing: Listing<LeadSortField>) {
  const where = whereClause(projectId, search);
  // Both names come from closed lists, so they may be written into the statement.
  const column = Prisma.raw(`"${listing.sortField}"`);
  const order = Prisma.raw(listing.direction === 1 ? 'ASC' : 'DESC');
  const orderBy = Prisma.sql`ORDER BY ${column} ${order}, "id" ${order}`;
  const offset = listing.page * listing.limit;
  const window = Prisma.sql`LIMIT ${listing.limit} OFFSET ${offset}`;

  let cache = countCaches.get(db);
  if (!cache) countCaches.set(db, (cache = countCache()));
  const key = `${projectId}\u0000${where.sql}\u0000${JSON.stringify(where.values)}`;
  const kept = cache.get(key);
  // A search that an index serves whatever its values (tags, words; not an e-mail prefix, whose
  // index is of use only once the prefix is known).
  const indexedSearch = !search.email && Boolean(search.tags?.length || search.full_text);
  // The version of the project's leads and, when given a count to take, the count (NULL otherwise:
  // a count is kept, and taken again only if the version moved).
  const version = Prisma.sql`(SELECT "version" FROM "LeadListVersion" WHERE "id_project" = ${projectId})::text`;
  const totalOf = indexedSearch ? Prisma.sql`(SELECT count(*) FROM "Lead" WHERE "id_project" = ${projectId})::int` : Prisma.sql`NULL::int`;
  const counts = (count: Prisma.Sql) => Prisma.sql`(${count})::int AS "listCount", ${totalOf} AS "listTotal"`;
  const totals = (count?: Prisma.Sql) => Prisma.sql`"totals" AS (
      SELECT ${version} AS "listVersion", ${count ? counts(count) : Prisma.sql`NULL::int AS "listCount", NULL::int AS "listTotal"`})`;
  // The page's leads by primary key, from the ids of the page (an array, so the planner cannot
  // turn it into a join over every lead); one row of nulls with the totals when there are none.
  const page = (ids: Prisma.Sql) => Prisma.sql`
    SELECT "totals".*, ${pageColumns}
    FROM "totals" LEFT JOIN "Lead" AS "page" ON "page"."id" = ANY(ARRAY(${ids}))
    ORDER BY "page".${column} ${order}, "page"."id" ${order}`;

  const countMatching = Prisma.sql`SELECT count(*) FROM "Lead" WHERE ${where}`;
  const end = offset + listing.limit;
  // The walk of the sort index, testing each lead as it comes, until the page is full: the
  // subquery (kept apart by OFFSET 0, so the test is not pushed into it and the planner sees no
  // filter to misjudge) is planned for the part of its rows a LIMIT takes (a tenth, in a plan made
  // before the values are known), i.e. as a scan of the sort index, and the outer query, with no
  // join or sort of its own, takes the rows in its order. Only taken with a count kept.
  const walk = () => Prisma.sql`${Prisma.raw(prepared)}
      WITH ${totals()}
      ${page(Prisma.sql`
        SELECT "o"."id" FROM (SELECT "id", (${where}) AS "matches" FROM "Lead" WHERE "id_project" = ${projectId} ${orderBy} OFFSET 0) AS "o"
        WHERE "o"."matches" ${window}`)}`;
  // Every match read once, through the search's index if there is one (else every lead of the
  // project), into a narrow list (id and sort key) that gives both the total and the ids of the page:
  // counted whenever no count is kept, and, reading every lead anyway, without a search's index.
  const readAll = () => Prisma.sql`${Prisma.raw(prepared)}
      WITH "matching" AS MATERIALIZED (SELECT "id", ${column} FROM "Lead" WHERE ${where}),
      ${totals(kept && indexedSearch ? undefined : Prisma.sql`SELECT count(*) FROM "matching"`)}
      ${page(Prisma.sql`SELECT "id" FROM "matching" ${orderBy} ${window}`)}`;
  let statement: Prisma.Sql;
  if (!search.condition && indexedSearch && kept) {
    // The count kept says how many match among how many leads, so which way finds the page sooner
    // is known before PostgreSQL sees the values: both ways are prepared and planned once, a
    // statement text per shape of search.
    statement = walkableSorts.has(listing.sortField) && walkPays(search, kept, end) ? walk() : readAll();
  } else if (!search.condition) {
    // The ids of the page come from an index in sort order (or, for a search, from its index): the
    // sort indexes end with "id", so skipping to a deep page reads index entries only.
    // Without a search, its text is one of a dozen (sort, direction), so it is prepared and planned
    // once (see `prepared`): the sort index serves it whatever the values. A search with no count
    // kept yet (or an e-mail prefix) is planned for its values: for a tag most leads carry (or a
    // short e-mail prefix, a common word), walking the sort index and testing each lead finds a
    // page sooner than reading every match through the search's index and sorting them, for a rare
    // one the other way round, and only the values tell which (PostgreSQL keeps statistics of the
    // tags, words and addresses).
    statement = Prisma.sql`${Prisma.raw(search.email || indexedSearch ? '' : prepared)}
      WITH ${totals(kept ? undefined : countMatching)}
      ${page(Prisma.sql`SELECT "id" FROM "Lead" WHERE ${where} ${orderBy} ${window}`)}`;
  } else if (kept && walkableSorts.has(listing.sortField) && end * walkFraction <= kept.count) {
    // A segment's filters cannot use an index and the planner cannot tell how many leads they
    // keep. With a page near the start of what they match, the sort index is walked. A count to
    // take again reads every lead, but only when the leads changed. Its text is the segment's
    // filters' shape (values are parameters): prepared and planned once, as the plan is this one
    // whatever the values.
    statement = walk();
  } else {
    // Otherwise the filters run once, over the project's leads (prepared and planned once, as above).
    statement = readAll();
  }
  const rows = await queryRows<PageRow>(db, statement);
  let { listVersion, listCount, listTotal } = rows[0];
  if (listCount === null && (!kept || listVersion !== kept.version)) {
    // The leads changed since the kept count: counted again, with the version counted at, and
    // planned as the page was (once, or for its values).
    const planned = statement.strings[0].startsWith(prepared) ? prepared : '';
    [{ listVersion, listCount, listTotal }] = await queryRows<Pick<PageRow, 'listVersion' | 'listCount' | 'listTotal'>>(
      db,
      Prisma.sql`${Prisma.raw(planned)} SELECT ${version} AS "listVersion", ${counts(countMatching)}`,
    );
  }
  let count: number;
  if (listCount === null) count = kept!.count;
  else {
    count = listCount;
    if (listVersion !== null) cache.set(key, { version: listVersion, count, total: listTotal });
  }
  const leads = rows[0].id === null ? [] : rows;
  for (const lead of leads) {
    lead.createdAt = toIso(lead.createdAt!);
    lead.updatedAt = toIso(lead.updatedAt!);
  }
  // Timestamps stay ISO text, exactly as the DateTime scalar writes a Date: no Date per value.
  return { count, leads: leads as unknown as Lead[] };
}

/**
 * A `timestamp(3)` as PostgreSQL writes it as text ("2024-05-01 10:00:00.12", UTC by convention,
 * trailing zeros of the fraction left out; ISO date style, PostgreSQL's default) as
 * `Date.toISOString` would write it ("2024-05-01T10:00:00.120Z").
 */
function toIso(text: string): string {
  const date = text.slice(0, 10);
  const time = text.slice(11);
  if (text.length === 19) return `${date}T${time}.000Z`;
  if (text.length >= 21 && text.length <= 23 && text[19] === '.') return `${date}T${time.padEnd(12, '0')}Z`;
  // Anything else (a year past 9999, say): through Date.
  return new Date(`${date}T${time}Z`).toISOString();
}
