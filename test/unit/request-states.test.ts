import { describe, expect, it } from 'vitest';
import { assertMove, canMove, isOpen, RequestStatus } from '../../src/modules/requests/states.js';

// The request state machine on its own, without an app: every pair of states, by a trigger
// (routing, taking, close, reopen) and by a status update (PATCH).

const { TEMPORARY, UNSERVED, ABANDONED, SERVED, CLOSED } = RequestStatus;
const all = [TEMPORARY, UNSERVED, ABANDONED, SERVED, CLOSED];

/** from → the states a trigger may move to; those a status update may ask for are in `byUpdate`. */
const legal: Record<number, { byTrigger: number[]; byUpdate: number[] }> = {
  [TEMPORARY]: { byTrigger: [UNSERVED, SERVED, CLOSED], byUpdate: [CLOSED] },
  [UNSERVED]: { byTrigger: [SERVED, ABANDONED, CLOSED], byUpdate: [ABANDONED, CLOSED] },
  [ABANDONED]: { byTrigger: [UNSERVED, SERVED, CLOSED], byUpdate: [UNSERVED, CLOSED] },
  [SERVED]: { byTrigger: [UNSERVED, CLOSED], byUpdate: [CLOSED] },
  [CLOSED]: { byTrigger: [UNSERVED, SERVED], byUpdate: [] },
};

describe('request states', () => {
  for (const from of all) {
    for (const to of all) {
      if (from === to) continue;
      const byTrigger = legal[from].byTrigger.includes(to);
      const byUpdate = legal[from].byUpdate.includes(to);
      it(`${from} → ${to}: ${byTrigger ? 'a trigger may move' : 'no trigger moves'}, ${byUpdate ? 'a status update may ask' : 'a status update may not ask'}`, () => {
        expect(canMove(from, to)).toBe(byTrigger);
        expect(canMove(from, to, true)).toBe(byUpdate);
      });
    }
  }

  it('staying in a state is always allowed', () => {
    for (const status of all) {
      expect(canMove(status, status)).toBe(true);
      expect(canMove(status, status, true)).toBe(true);
    }
  });

  it('refuses an illegal move with 409 naming both states and the status field', () => {
    let thrown: any;
    try {
      assertMove(CLOSED, ABANDONED);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toMatchObject({ status: 409, code: 'CONFLICT', extensions: { field: 'status' } });
    expect(thrown.message).toContain('CLOSED (1000)');
    expect(thrown.message).toContain('ABANDONED (150)');
  });

  it('says when a move exists but not by a status update', () => {
    expect(() => assertMove(UNSERVED, SERVED, true)).toThrow(/UNSERVED \(100\) to SERVED \(200\) by a status update/);
    expect(() => assertMove(UNSERVED, SERVED)).not.toThrow();
  });

  it('counts every state but CLOSED as open', () => {
    expect(all.filter(isOpen)).toEqual([TEMPORARY, UNSERVED, ABANDONED, SERVED]);
  });
});
