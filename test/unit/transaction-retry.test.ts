import { describe, expect, it } from 'vitest';
import type { EventLog } from '../../src/infra/event-log.js';
import { transactionWithRetry } from '../../src/modules/requests/store.js';

// A write's transaction that could not even start (every pooled connection busy, as when 200
// agents read while one posts: `npm run bench scale` answered 500 for it) has written nothing, so
// it is run again rather than failing the call; a failure inside a started transaction is not.

/** An event log whose transactions fail with `failures` in turn, then run the work. */
function failingLog(failures: unknown[]): EventLog {
  return {
    async transaction(work: (tx: never, emit: never) => Promise<unknown>) {
      const failure = failures.shift();
      if (failure) throw failure;
      return work(undefined as never, undefined as never);
    },
  } as unknown as EventLog;
}

const couldNotStart = Object.assign(new Error('Transaction API error: Unable to start a transaction in the given time.'), { code: 'P2028' });

describe('transactionWithRetry', () => {
  it('runs a transaction again when it could not start in time (every connection busy)', async () => {
    const result = await transactionWithRetry(failingLog([couldNotStart, couldNotStart]), async () => 'written');
    expect(result).toBe('written');
  });

  it('gives up after four attempts', async () => {
    const log = failingLog([couldNotStart, couldNotStart, couldNotStart, couldNotStart]);
    await expect(transactionWithRetry(log, async () => 'written')).rejects.toThrow(/Unable to start a transaction/);
  });

  it('does not run again a transaction that failed once started', async () => {
    const failed = Object.assign(new Error('Transaction API error: Transaction already closed'), { code: 'P2028' });
    await expect(transactionWithRetry(failingLog([failed]), async () => 'written')).rejects.toThrow(/already closed/);
  });
});
