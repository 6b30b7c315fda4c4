import { z } from 'zod';
import { Prisma } from '../../generated/prisma/client.js';

// Segment filters select leads. They are checked when a segment is saved and translated into a
// parameterised SQL condition on "Lead", so matching runs in the database, never in memory.

export const operators = ['=', '!=', '>', '>=', '<', '<=', 'contains', 'starts with', 'is null', 'is not null', 'in'] as const;
export type Operator = (typeof operators)[number];

type Kind = 'text' | 'tags' | 'date' | 'attribute';

/** Lead columns a filter may name; `attributes.<path>` names a custom attribute. */
const columns: Record<string, Exclude<Kind, 'attribute'>> = {
  lead_id: 'text',
  email: 'text',
  fullname: 'text',
  phone: 'text',
  company: 'text',
  note: 'text',
  streetAddress: 'text',
  city: 'text',
  region: 'text',
  zipcode: 'text',
  country: 'text',
  tags: 'tags',
  createdAt: 'date',
  updatedAt: 'date',
};

const operatorsOf: Record<Kind, readonly Operator[]> = {
  text: operators,
  attribute: operators,
  tags: ['=', '!=', 'contains', 'in', 'is null', 'is not null'],
  date: ['=', '!=', '>', '>=', '<', '<=', 'is null', 'is not null'],
};

const attributePath = /^attributes(\.[A-Za-z0-9_-]+)+$/;
const maxInValues = 100;

const scalar = z.union([z.string().max(1000, 'must be at most 1000 characters'), z.number(), z.boolean()], {
  message: 'must be a string, a number or a boolean',
});

export const filterInput = z
  .object({
    field: z
      .string({ message: 'is required' })
      .trim()
      .refine((f) => Object.hasOwn(columns, f) || attributePath.test(f), {
        message: `must be one of ${Object.keys(columns).join(', ')} or attributes.<name>`,
      }),
    operator: z.enum(operators, { message: `must be one of ${operators.map((o) => `"${o}"`).join(', ')}` }),
    value: z.union([scalar, z.array(scalar).min(1, 'must not be empty').max(maxInValues), z.null()]).optional(),
  })
  .superRefine((filter, ctx) => {
    const kind = kindOf(filter.field);
    const problem = (path: string, message: string) => ctx.addIssue({ code: 'custom', path: [path], message });
    if (!operatorsOf[kind].includes(filter.operator)) {
      return problem('operator', `"${filter.operator}" does not apply to ${filter.field}`);
    }
    if (filter.operator === 'is null' || filter.operator === 'is not null') return;
    const value = filter.value;
    if (filter.operator === 'in') {
      if (!Array.isArray(value)) problem('value', 'must be a non-empty list for "in"');
      return;
    }
    if (value === undefined || value === null) return problem('value', 'is required');
    if (Array.isArray(value)) return problem('value', `must be a single value for "${filter.operator}"`);
    if (kind === 'date' && Number.isNaN(new Date(String(value)).getTime())) {
      return problem('value', 'must be a date such as 2024-05-01 or 2024-05-01T10:00:00Z');
    }
    if (typeof value === 'boolean' && ['>', '>=', '<', '<=', 'contains', 'starts with'].includes(filter.operator)) {
      problem('value', `must be a number or a string for "${filter.operator}"`);
    }
  });

export type SegmentFilter = z.infer<typeof filterInput>;
export type Match = 'all' | 'any';

function kindOf(field: string): Kind {
  return Object.hasOwn(columns, field) ? columns[field] : 'attribute';
}

const numeric = /^-?\d+(\.\d+)?$/;

const likePattern = (value: unknown) => String(value).replace(/[\\%_]/g, '\\$&');

/** The SQL condition a segment puts on "Lead" rows. No filters select every lead. */
export function segmentCondition(match: Match, filters: SegmentFilter[]): Prisma.Sql {
  if (!filters.length) return Prisma.sql`TRUE`;
  const parts = filters.map(filterCondition);
  return Prisma.sql`(${Prisma.join(parts, match === 'any' ? ' OR ' : ' AND ')})`;
}

function filterCondition(filter: SegmentFilter): Prisma.Sql {
  const kind = kindOf(filter.field);
  if (kind === 'attribute') return attributeCondition(filter);
  const column = Prisma.raw(`"${filter.field}"`);
  const { operator, value } = filter;
  if (kind === 'tags') return tagsCondition(column, operator, value);
  if (kind === 'date') {
    // Timestamps are stored as UTC without a zone.
    const at = Prisma.sql`(${new Date(String(value)).toISOString()}::timestamptz AT TIME ZONE 'UTC')`;
    return comparison(column, operator, at);
  }
  return textCondition(column, operator, value);
}

function tagsCondition(column: Prisma.Sql, operator: Operator, value: SegmentFilter['value']): Prisma.Sql {
  switch (operator) {
    case 'is null':
      return Prisma.sql`cardinality(${column}) = 0`;
    case 'is not null':
      return Prisma.sql`cardinality(${column}) > 0`;
    case 'in':
      return Prisma.sql`${column} && ${(value as unknown[]).map(String)}::text[]`;
    case '!=':
      return Prisma.sql`NOT (${String(value)} = ANY(${column}))`;
    default:
      return Prisma.sql`${String(value)} = ANY(${column})`;
  }
}

function textCondition(column: Prisma.Sql, operator: Operator, value: SegmentFilter['value']): Prisma.Sql {
  switch (operator) {
    case 'in':
      return Prisma.sql`${column} = ANY(${(value as unknown[]).map(String)}::text[])`;
    case 'contains':
      return Prisma.sql`${column} ILIKE '%' || ${likePattern(value)}::text || '%'`;
    case 'starts with':
      return Prisma.sql`${column} ILIKE ${likePattern(value)}::text || '%'`;
    default:
      return comparison(column, operator, Prisma.sql`${String(value)}`);
  }
}

/**
 * Attributes are free-form JSON: equality compares the value as text (so 30 matches "30"),
 * and ordering compares numerically when the filter value is a number and the attribute looks
 * like one; attributes that do not are left out rather than failing the query.
 */
function attributeCondition(filter: SegmentFilter): Prisma.Sql {
  const path = filter.field.split('.').slice(1);
  // One key that cannot be an array index reads the same with -> as with #> (an array or a
  // scalar has no such key either way), and costs less per row: segments scan every lead.
  const single = path.length === 1 && !/^-?\d+$/.test(path[0]);
  const json = single ? Prisma.sql`("attributes" -> ${path[0]}::text)` : Prisma.sql`("attributes" #> ${path}::text[])`;
  const text = single ? Prisma.sql`("attributes" ->> ${path[0]}::text)` : Prisma.sql`("attributes" #>> ${path}::text[])`;
  const { operator, value } = filter;
  switch (operator) {
    case 'is null':
      return Prisma.sql`coalesce(jsonb_typeof(${json}), 'null') = 'null'`;
    case 'is not null':
      return Prisma.sql`coalesce(jsonb_typeof(${json}), 'null') <> 'null'`;
    case '>':
    case '>=':
    case '<':
    case '<=':
      if (numeric.test(String(value))) {
        // A JSON number is numeric as it is (its text always looks like one); a string only
        // when it looks like a number; anything else is not.
        const number = Prisma.sql`(CASE jsonb_typeof(${json}) WHEN 'number' THEN ${json}::numeric WHEN 'string' THEN (CASE WHEN ${text} ~ ${numeric.source} THEN ${text}::numeric END) END)`;
        return comparison(number, operator, Prisma.sql`${Number(value)}::numeric`);
      }
      return comparison(text, operator, Prisma.sql`${String(value)}`);
    default:
      return textCondition(text, operator, value);
  }
}

function comparison(left: Prisma.Sql, operator: Operator, right: Prisma.Sql): Prisma.Sql {
  switch (operator) {
    case 'is null':
      return Prisma.sql`${left} IS NULL`;
    case 'is not null':
      return Prisma.sql`${left} IS NOT NULL`;
    case '!=':
      return Prisma.sql`${left} IS DISTINCT FROM ${right}`;
    case '=':
    case '>':
    case '>=':
    case '<':
    case '<=':
      // A closed list of SQL operators: safe to write into the statement.
      return Prisma.sql`${left} ${Prisma.raw(operator)} ${right}`;
    default:
      throw new Error(`operator ${operator} is not a comparison`);
  }
}
