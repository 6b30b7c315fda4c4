import { describe, expect, it } from 'vitest';
import type { SlaPolicy } from '../../src/generated/prisma/client.js';
import { targetSeconds } from '../../src/modules/sla/durations.js';
import { matchPolicy } from '../../src/modules/sla/policies.js';
import { addWorkingTime } from '../../src/modules/sla/working-time.js';
import type { OperatingHours } from '../../src/modules/projects/operating-hours.js';

// The pure rules of SLAs: durations, which policy applies, and time counted in operating hours.

describe('SLA durations', () => {
  it.each([
    [90, 90],
    ['90', 90],
    ['30m', 1800],
    ['4h', 14_400],
    ['1d 2h', 93_600],
    ['1h30m', 5400],
    ['PT4H', 14_400],
    ['P1DT30M', 88_200],
  ])('reads %j as %i seconds', (input, seconds) => expect(targetSeconds('first_response', input)).toBe(seconds));

  it.each(['soon', '1.5h', 'P', 'PT', -5, 0, 1.5, '367d'])('refuses %j naming the field', (input) => {
    expect(() => targetSeconds('resolution', input)).toThrow(expect.objectContaining({ extensions: expect.objectContaining({ field: 'resolution' }) }));
  });

  it('reads null, false and "none" as no target', () => {
    expect([null, false, 'none'].map((v) => targetSeconds('first_response', v))).toEqual([null, null, null]);
  });
});

describe('which policy applies', () => {
  let n = 0;
  const policy = (name: string, departments: string[], priorities: string[]) =>
    ({ id: `p${++n}`, name, departments, priorities, createdAt: new Date(1_000_000 + n) }) as unknown as SlaPolicy;
  const all = [policy('catch-all', [], []), policy('urgent', [], ['urgent']), policy('sales', ['sales'], []), policy('sales urgent', ['sales'], ['urgent']), policy('catch-all later', [], [])];

  it.each([
    ['sales', 'urgent', 'sales urgent'],
    ['sales', 'low', 'sales'],
    ['support', 'urgent', 'urgent'],
    [null, 'normal', 'catch-all'],
  ])('department %s, priority %s: %s', (department, priority, expected) => expect(matchPolicy(all, department, priority)?.name).toBe(expected));

  it('none when nothing matches', () => expect(matchPolicy([policy('sales only', ['sales'], [])], 'support', 'normal')).toBeNull());
});

describe('time counted in operating hours', () => {
  // Weekdays 09:00–17:00 in Rome (UTC+1 in winter, UTC+2 in summer).
  const weekdays = { start: '09:00', end: '17:00' };
  const hours: OperatingHours = { tzname: 'Europe/Rome', '1': [weekdays], '2': [weekdays], '3': [weekdays], '4': [weekdays], '5': [weekdays] };

  it('counts calendar time without operating hours', () => {
    expect(addWorkingTime(null, new Date('2026-12-04T16:00:00Z'), 3600).toISOString()).toBe('2026-12-04T17:00:00.000Z');
  });

  it('stops at closing time and goes on at the next opening, over a weekend', () => {
    // Friday 15:30 in Rome, two hours: 1.5 h on Friday, 0.5 h on Monday from 09:00.
    expect(addWorkingTime(hours, new Date('2026-12-04T14:30:00Z'), 7200).toISOString()).toBe('2026-12-07T08:30:00.000Z');
  });

  it('starts at opening time for a request made at night', () => {
    expect(addWorkingTime(hours, new Date('2026-12-08T02:00:00Z'), 1800).toISOString()).toBe('2026-12-08T08:30:00.000Z');
  });

  it('follows the time zone across daylight saving time', () => {
    // Friday 27 March 2026 16:00 in Rome (UTC+1); DST starts on Sunday 29 March; Monday opens at 07:00 UTC.
    expect(addWorkingTime(hours, new Date('2026-03-27T15:00:00Z'), 7200).toISOString()).toBe('2026-03-30T08:00:00.000Z');
  });

  it('counts calendar time when no day has a slot', () => {
    expect(addWorkingTime({ tzname: 'UTC' }, new Date('2026-12-04T16:00:00Z'), 60).toISOString()).toBe('2026-12-04T16:01:00.000Z');
  });
});
