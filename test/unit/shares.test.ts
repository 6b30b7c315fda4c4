import { describe, expect, it } from 'vitest';
import { parseShares } from '../../src/modules/routing/shares.js';

// A department's group shares as stored (free JSON): only well-formed, positive shares count.

describe('routing shares', () => {
  it('keeps the shares with a group id and a positive percentage, in order', () => {
    expect(
      parseShares([
        { id_group: 'a', percentage: 70 },
        { id_group: 'b', percentage: 0 },
        { id_group: 'c', percentage: -5 },
        { id_group: 4, percentage: 10 },
        { id_group: 'd', percentage: '30' },
        null,
        { id_group: 'e', percentage: 30 },
      ]),
    ).toEqual([
      { id_group: 'a', percentage: 70 },
      { id_group: 'e', percentage: 30 },
    ]);
  });

  it('reads anything but an array as no shares', () => {
    for (const value of [undefined, null, 'a', { id_group: 'a', percentage: 1 }]) expect(parseShares(value)).toEqual([]);
  });
});
