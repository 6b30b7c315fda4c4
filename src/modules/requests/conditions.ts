import { Prisma, type Request } from '../../generated/prisma/client.js';

// A rule about a request row, written once and read two ways: `holds` decides it on a loaded row,
// `conditionSql` writes it as SQL on the Request row `r` (for a list's WHERE, or a batched
// statement that decides row by row). Who asks comes as parameters: JavaScript values, folded into
// the SQL text when known (so a list query keeps the plain `r."requester_id" = $1` an index serves),
// or SQL expressions (e.g. a column of a batch's input, one statement text for every caller).
//
// Both readings are two-valued, as JavaScript is: a NULL column equals nothing, and a negation is
// pushed down to its comparisons (`IS DISTINCT FROM`, `NOT COALESCE(…, FALSE)`) rather than applied
// to a possible NULL.

type Scalar = string | number | boolean | null;
type ArrayColumn = { [K in keyof Request]: Request[K] extends unknown[] ? K : never }[keyof Request];
type ScalarColumn = Exclude<{ [K in keyof Request]: Request[K] extends Scalar | Date ? K : never }[keyof Request], undefined>;

export type Operand = { column: ScalarColumn } | { param: string } | { value: Scalar };

export type Condition =
  | { all: Condition[] }
  | { any: Condition[] }
  | { not: Condition }
  | { equal: [Operand, Operand] }
  | { oneOf: [Operand, Operand | readonly Scalar[]] }
  | { contains: [ArrayColumn, Operand] }
  | { empty: ArrayColumn }
  | { isNull: Operand };

export const column = (name: ScalarColumn): Operand => ({ column: name });
export const param = (name: string): Operand => ({ param: name });
export const value = (v: Scalar): Operand => ({ value: v });
export const all = (...conditions: Condition[]): Condition => ({ all: conditions });
export const any = (...conditions: Condition[]): Condition => ({ any: conditions });
export const not = (condition: Condition): Condition => ({ not: condition });
export const equal = (a: Operand, b: Operand): Condition => ({ equal: [a, b] });
/** `a` is one of a list: literal values, or a parameter holding a list. */
export const oneOf = (a: Operand, list: Operand | readonly Scalar[]): Condition => ({ oneOf: [a, list] });
export const contains = (array: ArrayColumn, item: Operand): Condition => ({ contains: [array, item] });
export const empty = (array: ArrayColumn): Condition => ({ empty: array });
export const isNull = (a: Operand): Condition => ({ isNull: a });

/** Parameter values for `holds`. */
export type Params = Record<string, Scalar | readonly Scalar[]>;
/** Parameter values for `conditionSql`: known values, or SQL expressions evaluated per row. */
export type SqlParams = Record<string, Scalar | readonly Scalar[] | Prisma.Sql>;

// ---- JavaScript

function read(operand: Operand, row: Request, params: Params): unknown {
  if ('column' in operand) {
    const v = row[operand.column];
    return v instanceof Date ? v.getTime() : v;
  }
  if ('param' in operand) {
    if (!(operand.param in params)) throw new Error(`condition: no parameter ${operand.param}`);
    return params[operand.param];
  }
  return operand.value;
}

/** Whether the condition holds on a loaded request row. */
export function holds(condition: Condition, row: Request, params: Params): boolean {
  if ('all' in condition) return condition.all.every((c) => holds(c, row, params));
  if ('any' in condition) return condition.any.some((c) => holds(c, row, params));
  if ('not' in condition) return !holds(condition.not, row, params);
  if ('equal' in condition) {
    const [a, b] = condition.equal.map((o) => read(o, row, params));
    return a !== null && a !== undefined && a === b;
  }
  if ('oneOf' in condition) {
    const [operand, list] = condition.oneOf;
    const v = read(operand, row, params);
    const values = (Array.isArray(list) ? list : read(list as Operand, row, params)) as readonly unknown[];
    return v !== null && v !== undefined && values.includes(v);
  }
  if ('contains' in condition) {
    const item = read(condition.contains[1], row, params);
    return item !== null && item !== undefined && (row[condition.contains[0]] as unknown[]).includes(item);
  }
  if ('empty' in condition) return (row[condition.empty] as unknown[]).length === 0;
  const v = read(condition.isNull, row, params);
  return v === null || v === undefined;
}

// ---- SQL

type Known = { known: Scalar | readonly Scalar[] };
type Term = Known | { sql: Prisma.Sql };

const isSql = (v: unknown): v is Prisma.Sql => v instanceof Prisma.Sql;

function term(operand: Operand, params: SqlParams): Term {
  if ('column' in operand) return { sql: Prisma.raw(`r."${operand.column}"`) };
  if ('param' in operand) {
    if (!(operand.param in params)) throw new Error(`condition: no parameter ${operand.param}`);
    const v = params[operand.param];
    return isSql(v) ? { sql: v } : { known: v };
  }
  return { known: operand.value };
}

const sqlOf = (t: Term): Prisma.Sql => ('sql' in t ? t.sql : Prisma.sql`${t.known}`);

/** A folded condition: a constant, or SQL that is TRUE or FALSE (or NULL, read as FALSE) per row. */
type Folded = boolean | Prisma.Sql;

function combine(parts: Folded[], and: boolean): Folded {
  const open: Prisma.Sql[] = [];
  for (const part of parts) {
    if (part === !and) return !and; // FALSE in an AND, TRUE in an OR
    if (part !== and) open.push(part as Prisma.Sql);
  }
  if (!open.length) return and;
  if (open.length === 1) return open[0];
  return Prisma.sql`(${Prisma.join(open, and ? ' AND ' : ' OR ')})`;
}

function fold(condition: Condition, params: SqlParams, negated: boolean): Folded {
  if ('all' in condition) return combine(condition.all.map((c) => fold(c, params, negated)), !negated);
  if ('any' in condition) return combine(condition.any.map((c) => fold(c, params, negated)), negated);
  if ('not' in condition) return fold(condition.not, params, !negated);
  if ('equal' in condition) {
    const [a, b] = condition.equal.map((o) => term(o, params));
    if ('known' in a && 'known' in b) return (a.known !== null && a.known === b.known) !== negated;
    if (('known' in a && a.known === null) || ('known' in b && b.known === null)) return negated;
    if (!negated) return Prisma.sql`${sqlOf(a)} = ${sqlOf(b)}`;
    // A known side is not NULL here, so IS DISTINCT FROM is true where the other is NULL; two
    // expressions may both be NULL, which it calls not distinct where `holds` calls them unequal.
    if ('known' in a || 'known' in b) return Prisma.sql`${sqlOf(a)} IS DISTINCT FROM ${sqlOf(b)}`;
    return Prisma.sql`NOT COALESCE(${sqlOf(a)} = ${sqlOf(b)}, FALSE)`;
  }
  if ('oneOf' in condition) {
    const [operand, list] = condition.oneOf;
    const a = term(operand, params);
    const values = Array.isArray(list) ? { known: list as readonly Scalar[] } : term(list as Operand, params);
    if (!('known' in values)) throw new Error('condition: oneOf needs a known list');
    const items = values.known as readonly Scalar[];
    if ('known' in a) return (a.known !== null && items.includes(a.known as Scalar)) !== negated;
    if (!items.length) return negated;
    const inList = Prisma.sql`${sqlOf(a)} IN (${Prisma.join(items as Scalar[])})`;
    return negated ? Prisma.sql`NOT COALESCE(${inList}, FALSE)` : inList;
  }
  if ('contains' in condition) {
    const item = term(condition.contains[1], params);
    if ('known' in item && item.known === null) return negated;
    const has = Prisma.sql`${sqlOf(item)} = ANY(${Prisma.raw(`r."${condition.contains[0]}"`)})`;
    return negated ? Prisma.sql`NOT COALESCE(${has}, FALSE)` : has;
  }
  if ('empty' in condition) {
    return Prisma.sql`cardinality(${Prisma.raw(`r."${condition.empty}"`)}) ${Prisma.raw(negated ? '<>' : '=')} 0`;
  }
  const a = term(condition.isNull, params);
  if ('known' in a) return (a.known === null) !== negated;
  return Prisma.sql`${sqlOf(a)} ${Prisma.raw(negated ? 'IS NOT NULL' : 'IS NULL')}`;
}

/** The condition as SQL on `r`; NULL (when it happens) reads as false, as in a WHERE. */
export function conditionSql(condition: Condition, params: SqlParams): Prisma.Sql {
  const folded = fold(condition, params, false);
  if (folded === true) return Prisma.sql`TRUE`;
  if (folded === false) return Prisma.sql`FALSE`;
  return folded;
}
