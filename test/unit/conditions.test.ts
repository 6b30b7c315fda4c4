import { describe, expect, it } from 'vitest';
import { Prisma, type Request } from '../../src/generated/prisma/client.js';
import {
  all,
  any,
  column,
  conditionSql,
  contains,
  empty,
  equal,
  holds,
  isNull,
  not,
  oneOf,
  param,
  value,
  type Condition,
  type Params,
} from '../../src/modules/requests/conditions.js';
import { RequestStatus } from '../../src/modules/requests/states.js';
import { expectReadingsAgree, idsByHolds, rows } from './both-readings.js';

// A request condition is written once and read two ways: `holds` on a loaded row, `conditionSql`
// as SQL on the row `r`. Both are two-valued (a NULL column equals nothing; a negation is pushed
// down to the comparisons rather than applied to a possible NULL), and known parameters are folded
// into the SQL text. The last part runs both readings on the same rows and compares them.

const request = (fields: Partial<Request>) =>
  ({ requester_id: null, departmentId: null, participants: [], participatingAgents: [], first_response_at: null, ...fields }) as Request;

const sql = (condition: Condition, params: Record<string, unknown> = {}) => {
  const written = conditionSql(condition, params as never);
  return { sql: written.sql, values: written.values };
};

describe('conditions read in JavaScript (holds)', () => {
  it('equal: a NULL column equals nothing, not even a NULL parameter', () => {
    const byRequester = equal(column('requester_id'), param('teammateId'));
    expect(holds(byRequester, request({ requester_id: 't1' }), { teammateId: 't1' })).toBe(true);
    expect(holds(byRequester, request({ requester_id: 't1' }), { teammateId: 't2' })).toBe(false);
    expect(holds(byRequester, request({ requester_id: null }), { teammateId: null })).toBe(false);
    expect(holds(byRequester, request({ requester_id: 't1' }), { teammateId: null })).toBe(false);
  });

  it('not: the negation of a comparison with NULL holds', () => {
    expect(holds(not(equal(column('requester_id'), param('teammateId'))), request({ requester_id: null }), { teammateId: null })).toBe(true);
    expect(holds(not(equal(column('departmentId'), value('d1'))), request({ departmentId: null }), {})).toBe(true);
  });

  it('oneOf: a literal list or a list parameter; NULL is one of nothing, even of a list holding NULL', () => {
    const preflight = oneOf(column('status'), [RequestStatus.TEMPORARY, RequestStatus.ABANDONED]);
    expect(holds(preflight, request({ status: RequestStatus.ABANDONED }), {})).toBe(true);
    expect(holds(preflight, request({ status: RequestStatus.SERVED }), {})).toBe(false);
    const mine = oneOf(column('departmentId'), param('departmentIds'));
    expect(holds(mine, request({ departmentId: 'd2' }), { departmentIds: ['d1', 'd2'] })).toBe(true);
    expect(holds(mine, request({ departmentId: 'd2' }), { departmentIds: [] })).toBe(false);
    expect(holds(mine, request({ departmentId: null }), { departmentIds: [null] })).toBe(false);
  });

  it('contains: an array column holding the item; a NULL item is held by none', () => {
    const participates = contains('participants', param('userId'));
    expect(holds(participates, request({ participants: ['u2', 'u1'] }), { userId: 'u1' })).toBe(true);
    expect(holds(participates, request({ participants: ['u2'] }), { userId: 'u1' })).toBe(false);
    expect(holds(participates, request({ participants: ['u2'] }), { userId: null })).toBe(false);
  });

  it('empty: an array column with no item', () => {
    expect(holds(empty('participatingAgents'), request({ participatingAgents: [] }), {})).toBe(true);
    expect(holds(empty('participatingAgents'), request({ participatingAgents: ['u1'] }), {})).toBe(false);
  });

  it('isNull: a NULL column (a date column included) or parameter', () => {
    expect(holds(isNull(column('first_response_at')), request({ first_response_at: null }), {})).toBe(true);
    expect(holds(isNull(column('first_response_at')), request({ first_response_at: new Date() }), {})).toBe(false);
    expect(holds(isNull(param('teammateId')), request({}), { teammateId: null })).toBe(true);
  });

  it('all of nothing holds, any of nothing does not', () => {
    expect(holds(all(), request({}), {})).toBe(true);
    expect(holds(any(), request({}), {})).toBe(false);
  });

  it('refuses a parameter it was not given, naming it', () => {
    expect(() => holds(equal(column('requester_id'), param('teammateId')), request({}), {})).toThrow('condition: no parameter teammateId');
  });
});

describe('conditions written as SQL (conditionSql)', () => {
  it('folds a known parameter into a parameterised comparison an index serves', () => {
    expect(sql(equal(column('requester_id'), param('teammateId')), { teammateId: "o'brien" })).toEqual({
      sql: 'r."requester_id" = ?',
      values: ["o'brien"],
    });
  });

  it('takes a parameter given as SQL as it is (one statement text for every caller)', () => {
    expect(sql(equal(column('requester_id'), param('teammateId')), { teammateId: Prisma.sql`x."teammate"` })).toEqual({
      sql: 'r."requester_id" = x."teammate"',
      values: [],
    });
  });

  it('folds a comparison of known values into a constant', () => {
    expect(sql(equal(param('kind'), value('admin')), { kind: 'admin' }).sql).toBe('TRUE');
    expect(sql(equal(param('kind'), value('admin')), { kind: 'agent' }).sql).toBe('FALSE');
    expect(sql(not(equal(param('kind'), value('admin'))), { kind: 'agent' }).sql).toBe('TRUE');
    expect(sql(oneOf(param('kind'), ['agent', 'admin']), { kind: 'agent' }).sql).toBe('TRUE');
  });

  it('reads a comparison with a known NULL as false, and its negation as true', () => {
    expect(sql(equal(column('requester_id'), param('teammateId')), { teammateId: null }).sql).toBe('FALSE');
    expect(sql(not(equal(column('requester_id'), param('teammateId'))), { teammateId: null }).sql).toBe('TRUE');
    expect(sql(equal(param('a'), param('b')), { a: null, b: null }).sql).toBe('FALSE');
    expect(sql(contains('participants', param('userId')), { userId: null }).sql).toBe('FALSE');
    expect(sql(not(contains('participants', param('userId'))), { userId: null }).sql).toBe('TRUE');
    expect(sql(isNull(param('userId')), { userId: null }).sql).toBe('TRUE');
  });

  it('drops the constants of an AND or an OR, and decides it when one settles it', () => {
    const byRequester = equal(column('requester_id'), param('teammateId'));
    const params = { kind: 'agent', teammateId: 't1' };
    expect(sql(all(equal(param('kind'), value('agent')), byRequester), params).sql).toBe('r."requester_id" = ?');
    expect(sql(all(equal(param('kind'), value('admin')), byRequester), params).sql).toBe('FALSE');
    expect(sql(any(equal(param('kind'), value('agent')), byRequester), params).sql).toBe('TRUE');
    expect(sql(any(equal(param('kind'), value('admin')), byRequester), params).sql).toBe('r."requester_id" = ?');
    expect(sql(all(), {}).sql).toBe('TRUE');
    expect(sql(any(), {}).sql).toBe('FALSE');
  });

  it('parenthesises what is left of an AND or an OR', () => {
    const written = sql(any(isNull(column('departmentId')), all(empty('participatingAgents'), isNull(column('first_response_at')))));
    expect(written.sql).toBe('(r."departmentId" IS NULL OR (cardinality(r."participatingAgents") = 0 AND r."first_response_at" IS NULL))');
  });

  it('pushes a negation down: IS DISTINCT FROM for an equality with a known value, De Morgan for AND and OR', () => {
    expect(sql(not(equal(column('requester_id'), param('teammateId'))), { teammateId: 't1' })).toEqual({
      sql: 'r."requester_id" IS DISTINCT FROM ?',
      values: ['t1'],
    });
    expect(sql(not(all(isNull(column('departmentId')), empty('participants')))).sql).toBe(
      '(r."departmentId" IS NOT NULL OR cardinality(r."participants") <> 0)',
    );
    expect(sql(not(not(isNull(column('departmentId'))))).sql).toBe('r."departmentId" IS NULL');
  });

  it('negates an equality of two SQL operands as NOT COALESCE(… = …, FALSE): both may be NULL, and NULL equals nothing', () => {
    expect(sql(not(equal(column('requester_id'), column('leadId')))).sql).toBe('NOT COALESCE(r."requester_id" = r."leadId", FALSE)');
    expect(sql(not(equal(column('requester_id'), param('teammateId'))), { teammateId: Prisma.sql`x."teammate"` }).sql).toBe(
      'NOT COALESCE(r."requester_id" = x."teammate", FALSE)',
    );
  });

  it('writes oneOf of a literal list as IN with each value a parameter, its negation as NOT COALESCE(…, FALSE)', () => {
    const preflight = oneOf(column('status'), [RequestStatus.TEMPORARY, RequestStatus.ABANDONED]);
    expect(sql(preflight)).toEqual({ sql: 'r."status" IN (?,?)', values: [50, 150] });
    expect(sql(not(preflight))).toEqual({ sql: 'NOT COALESCE(r."status" IN (?,?), FALSE)', values: [50, 150] });
  });

  it('writes oneOf of a list parameter from its values, and of an empty list as false', () => {
    const mine = oneOf(column('departmentId'), param('departmentIds'));
    expect(sql(mine, { departmentIds: ['d1', 'd2'] })).toEqual({ sql: 'r."departmentId" IN (?,?)', values: ['d1', 'd2'] });
    expect(sql(mine, { departmentIds: [] }).sql).toBe('FALSE');
    expect(sql(not(mine), { departmentIds: [] }).sql).toBe('TRUE');
  });

  it('refuses oneOf of a list given as SQL', () => {
    expect(() => conditionSql(oneOf(column('departmentId'), param('departmentIds')), { departmentIds: Prisma.sql`x."ids"` })).toThrow(
      'condition: oneOf needs a known list',
    );
  });

  it('writes contains as = ANY of the array column, empty as its cardinality', () => {
    expect(sql(contains('participants', param('userId')), { userId: 'u1' })).toEqual({ sql: '? = ANY(r."participants")', values: ['u1'] });
    expect(sql(not(contains('participants', param('userId'))), { userId: 'u1' }).sql).toBe('NOT COALESCE(? = ANY(r."participants"), FALSE)');
    expect(sql(empty('participatingAgents')).sql).toBe('cardinality(r."participatingAgents") = 0');
    expect(sql(not(empty('participatingAgents'))).sql).toBe('cardinality(r."participatingAgents") <> 0');
  });

  it('keeps every value out of the SQL text', () => {
    const written = sql(
      any(equal(column('requester_id'), param('teammateId')), contains('participants', param('userId')), oneOf(column('departmentId'), ["d'1"])),
      { teammateId: "t'1; DROP TABLE x", userId: "u'1" },
    );
    expect(written.sql).not.toContain("'");
    expect(written.values).toEqual(["t'1; DROP TABLE x", "u'1", "d'1"]);
  });

  it('refuses a parameter it was not given, naming it', () => {
    expect(() => conditionSql(equal(column('requester_id'), param('teammateId')), {})).toThrow('condition: no parameter teammateId');
  });
});

/** Conditions and the parameters to read each with: every pairing is read both ways. */
const cases: Array<[string, Condition, Params[]]> = [
  [
    'equal of a column and a parameter (NULL on either side)',
    equal(column('requester_id'), param('teammateId')),
    [{ teammateId: 't1' }, { teammateId: 'nobody' }, { teammateId: null }],
  ],
  ['equal of two columns (NULL on either side or both)', equal(column('requester_id'), column('leadId')), [{}]],
  ['equal of a parameter and a value', equal(param('kind'), value('agent')), [{ kind: 'agent' }, { kind: 'admin' }, { kind: null }]],
  ['equal of an integer column and a value', equal(column('status'), value(RequestStatus.CLOSED)), [{}]],
  ['oneOf of a literal list', oneOf(column('status'), [RequestStatus.TEMPORARY, RequestStatus.ABANDONED]), [{}]],
  ['oneOf of a literal list holding NULL', oneOf(column('departmentId'), ['d1', null]), [{}]],
  [
    'oneOf of a list parameter (empty, one, several)',
    oneOf(column('departmentId'), param('departmentIds')),
    [{ departmentIds: [] }, { departmentIds: ['d1'] }, { departmentIds: ['d1', 'd2'] }],
  ],
  ['oneOf of a parameter in a literal list', oneOf(param('kind'), ['agent', 'admin']), [{ kind: 'agent' }, { kind: 'end-user' }, { kind: null }]],
  ['contains of a parameter (NULL included)', contains('participants', param('userId')), [{ userId: 'u1' }, { userId: 't1' }, { userId: null }]],
  ['contains of a column (NULL included)', contains('participants', column('requester_id')), [{}]],
  ['empty', empty('participatingAgents'), [{}]],
  ['isNull of a column', isNull(column('departmentId')), [{}]],
  ['isNull of a date column', isNull(column('first_response_at')), [{}]],
  ['isNull of a parameter', isNull(param('userId')), [{ userId: null }, { userId: 'u1' }]],
  ['all and any of nothing', any(all(), any()), [{}]],
  [
    'nested all, any and not over columns and parameters',
    any(
      all(not(equal(param('kind'), value('bot'))), equal(column('requester_id'), param('teammateId'))),
      all(
        equal(param('kind'), value('agent')),
        not(isNull(column('departmentId'))),
        any(contains('participants', param('userId')), all(empty('participatingAgents'), oneOf(column('departmentId'), param('departmentIds')))),
      ),
      not(any(oneOf(column('status'), [RequestStatus.CLOSED]), isNull(column('first_response_at')))),
    ),
    [
      { kind: 'agent', teammateId: 't1', userId: 'u1', departmentIds: ['d1'] },
      { kind: 'bot', teammateId: null, userId: null, departmentIds: [] },
      { kind: 'end-user', teammateId: 't2', userId: 'u2', departmentIds: ['d2'] },
    ],
  ],
];

describe('both readings agree: SQL selects the rows holds holds on', () => {
  it('reads over rows that have each column NULL and not, each status, arrays empty and not', () => {
    expect(rows.length).toBeGreaterThan(1000);
    // The rows are not all alike for the conditions below: each selects some, and not all.
    const selected = idsByHolds(any(equal(column('requester_id'), column('leadId')), contains('participants', param('u'))), { u: 'u1' });
    expect(selected.length).toBeGreaterThan(0);
    expect(selected.length).toBeLessThan(rows.length);
  });

  for (const [name, condition, paramSets] of cases) {
    it(name, async () => {
      for (const params of paramSets) await expectReadingsAgree(condition, params);
    });
  }
});
