import { readFileSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { expect, inject } from 'vitest';
import { Prisma, type Request } from '../../src/generated/prisma/client.js';
import { conditionSql, holds, not, type Condition, type Params, type SqlParams } from '../../src/modules/requests/conditions.js';
import { RequestStatus } from '../../src/modules/requests/states.js';

// The two readings of a request condition (src/modules/requests/conditions.ts) side by side:
// `holds` on each of a set of request rows, and `conditionSql` as the WHERE of a query over the
// same rows in an embedded database of the worker's own (in memory, no server, no migration:
// a table of the columns the conditions read, typed as the Request table types them).

/** The columns the rules read, with their types in the Request table. */
const columns = {
  id: 'text',
  requester_id: 'text',
  leadId: 'text',
  departmentId: 'text',
  status: 'int',
  participants: 'text[]',
  participatingAgents: 'text[]',
  first_response_at: 'timestamp(3)',
} as const;

type Row = Pick<Request, keyof typeof columns>;

const product = <T>(lists: T[][]): T[][] => lists.reduce<T[][]>((acc, list) => acc.flatMap((prefix) => list.map((item) => [...prefix, item])), [[]]);

/**
 * Every combination of a few values of each column: teammates `t1`, `t2`, users `u1`, `u2`,
 * departments `d1`, `d2`, each column also NULL where it may be, arrays empty or not.
 */
export const rows: Row[] = product<unknown>([
  ['t1', 't2', null],
  ['t1', null],
  ['d1', 'd2', null],
  Object.values(RequestStatus),
  [[], ['u1'], ['u2', 't1']],
  [[], ['u1']],
  [null, new Date('2026-01-02T03:04:05.678Z')],
]).map(([requester_id, leadId, departmentId, status, participants, participatingAgents, first_response_at], i) => ({
  id: `r${String(i).padStart(4, '0')}`,
  requester_id,
  leadId,
  departmentId,
  status,
  participants,
  participatingAgents,
  first_response_at,
})) as Row[];

let database: Promise<PGlite> | undefined;

/**
 * One database per worker, opened from the image of an empty cluster the global setup made
 * (about a second of CPU): the files a worker runs share it (isolate: false), and they only read it.
 */
function rowsDatabase(): Promise<PGlite> {
  database ??= (async () => {
    const db = await PGlite.create({ loadDataDir: new Blob([readFileSync(inject('emptyEmbeddedImage'))]) });
    const definition = Object.entries(columns)
      .map(([name, type]) => `"${name}" ${type}`)
      .join(', ');
    await db.exec(`CREATE TABLE request_rows (${definition})`);
    await db.query('INSERT INTO request_rows SELECT * FROM jsonb_populate_recordset(NULL::request_rows, $1::jsonb)', [JSON.stringify(rows)]);
    return db;
  })();
  return database;
}

/** The ids of the rows the condition holds on, read in JavaScript. */
export function idsByHolds(condition: Condition, params: Params): string[] {
  return rows.filter((row) => holds(condition, row as Request, params)).map((row) => row.id);
}

/** The ids of the rows a WHERE of the condition's SQL selects (NULL reads as false there, as in a WHERE or a CASE). */
export function idsBySql(condition: Condition, params: SqlParams, from: Prisma.Sql = Prisma.empty): Promise<string[]> {
  return idsWhere(conditionSql(condition, params), from);
}

/** The ids of the rows a WHERE of SQL on `r` selects. */
export async function idsWhere(where: Prisma.Sql, from: Prisma.Sql = Prisma.empty): Promise<string[]> {
  const query = Prisma.sql`SELECT r."id" FROM request_rows r ${from} WHERE ${where} ORDER BY r."id"`;
  const db = await rowsDatabase();
  const { rows: found } = await db.query<{ id: string }>(query.text, query.values);
  return found.map((row) => row.id);
}

/** The one row a SELECT of SQL values gives (no table read), for rules that compute a value. */
export async function selectValues<T>(select: Prisma.Sql): Promise<T> {
  const query = Prisma.sql`SELECT ${select}`;
  const db = await rowsDatabase();
  const { rows: found } = await db.query<T>(query.text, query.values);
  return found[0];
}

const sqlType = (v: unknown) => (typeof v === 'number' ? 'int' : typeof v === 'boolean' ? 'boolean' : 'text');

/**
 * The parameters as SQL expressions, as the batched statement gives them (a column of its input
 * row `x`, one statement text whatever their values), rather than folded into the text. Lists stay
 * known: `oneOf` needs its list known.
 */
export function asExpressions(params: Params): { params: SqlParams; from: Prisma.Sql } {
  const scalars = Object.entries(params).filter(([, v]) => !Array.isArray(v));
  if (!scalars.length) return { params, from: Prisma.empty };
  const select = Prisma.join(
    scalars.map(([name, v]) => Prisma.sql`${v}::${Prisma.raw(sqlType(v))} AS ${Prisma.raw(`"p_${name}"`)}`),
    ', ',
  );
  return {
    params: { ...params, ...Object.fromEntries(scalars.map(([name]) => [name, Prisma.raw(`x."p_${name}"`)])) },
    from: Prisma.sql`CROSS JOIN (SELECT ${select}) x`,
  };
}

/**
 * Both readings select the same rows, for the condition and for its negation (which the SQL
 * pushes down to its comparisons), with the parameters folded into the text and given as SQL.
 */
export async function expectReadingsAgree(condition: Condition, params: Params) {
  const expressions = asExpressions(params);
  for (const [label, c] of [
    ['condition', condition],
    ['negation', not(condition)],
  ] as const) {
    const expected = idsByHolds(c, params);
    expect(await idsBySql(c, params), `${label}, parameters folded`).toEqual(expected);
    expect(await idsBySql(c, expressions.params, expressions.from), `${label}, parameters as SQL`).toEqual(expected);
  }
}
