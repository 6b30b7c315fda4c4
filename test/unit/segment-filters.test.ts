import { describe, expect, it } from 'vitest';
import { filterInput, segmentCondition, type SegmentFilter } from '../../src/modules/segments/filters.js';

// Segment filters on their own: what a saved filter may say (each refusal names its field), and
// that matching is a parameterised condition (values never in the SQL text).

const problem = (input: unknown) => {
  const parsed = filterInput.safeParse(input);
  return parsed.success ? undefined : { path: parsed.error.issues[0].path.join('.'), message: parsed.error.issues[0].message };
};

describe('segment filters', () => {
  it('accepts a lead column, a custom attribute and the operators that apply to each', () => {
    for (const filter of [
      { field: 'email', operator: 'contains', value: 'acme' },
      { field: 'tags', operator: 'in', value: ['vip', 'new'] },
      { field: 'createdAt', operator: '>=', value: '2024-05-01' },
      { field: 'attributes.plan.level', operator: '>', value: 3 },
      { field: 'phone', operator: 'is null' },
    ]) {
      expect(problem(filter)).toBeUndefined();
    }
  });

  it('refuses an unknown field, naming field', () => {
    expect(problem({ field: 'password', operator: '=', value: 'x' })).toMatchObject({ path: 'field' });
  });

  it('refuses an operator that does not apply to the field, naming operator', () => {
    expect(problem({ field: 'tags', operator: '>', value: 'a' })).toMatchObject({ path: 'operator', message: '">" does not apply to tags' });
    expect(problem({ field: 'createdAt', operator: 'contains', value: '2024' })).toMatchObject({ path: 'operator' });
  });

  it('refuses a missing, malformed or misplaced value, naming value', () => {
    expect(problem({ field: 'email', operator: '=' })).toMatchObject({ path: 'value', message: 'is required' });
    expect(problem({ field: 'email', operator: 'in', value: 'a' })).toMatchObject({ path: 'value' });
    expect(problem({ field: 'email', operator: '=', value: ['a'] })).toMatchObject({ path: 'value' });
    expect(problem({ field: 'updatedAt', operator: '<', value: 'yesterday' })).toMatchObject({ path: 'value' });
    expect(problem({ field: 'email', operator: '>', value: true })).toMatchObject({ path: 'value' });
  });

  it('selects every lead with no filters', () => {
    expect(segmentCondition('all', []).sql).toBe('TRUE');
  });

  it('joins filters with AND for all and OR for any, keeping values as parameters', () => {
    const filters = filterInput.array().parse([
      { field: 'email', operator: 'starts with', value: "o'brien%" },
      { field: 'tags', operator: '=', value: 'vip' },
    ]) as SegmentFilter[];
    const all = segmentCondition('all', filters);
    expect(all.sql).toContain(' AND ');
    expect(all.sql).not.toContain('brien');
    // LIKE wildcards in the value are matched literally.
    expect(all.values).toEqual(["o'brien\\%", 'vip']);
    expect(segmentCondition('any', filters).sql).toContain(' OR ');
  });
});
