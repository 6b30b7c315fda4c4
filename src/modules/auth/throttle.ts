import { RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { Config } from '../../config.js';
import { AppError } from '../../errors.js';
import { keyDigest, type Limiters } from '../../infra/rate-limit.js';

// One throttle for every credential check: passwords (sign-in and Basic), custom tokens, bot
// tokens and this server's tokens. As OWASP's authentication guidance has it:
// - one account tried from one address: after `maxFailures` consecutive failures the pair waits
//   `lockSeconds`, then twice as long at each further failure (up to `maxLockSeconds`); a success
//   ends the run. Failures elsewhere never lock this pair;
// - one address over every account, and one account from every address: larger budgets per
//   window. They bind only addresses the account has not signed in from before, so its owner, at
//   an address they used, is not locked out by someone failing elsewhere;
// - a browser that signed in to the account before (its signed device cookie, device-cookie.ts)
//   is counted per device instead of per address: strangers failing behind the same address (an
//   office, a carrier's NAT) lock out neither it nor the account there.
// The counters are rate-limiter-flexible's: in Redis, shared by every node, in production; in
// memory embedded.

/** A credential that did not verify (wrong password, bad signature): it counts as a failure. */
export class CredentialRejected extends AppError {
  constructor(message: string) {
    super('UNAUTHENTICATED', message);
  }
}

/**
 * Who is trying. `account` is what the credential claims (an e-mail, `project:<id>`, `bot:<id>`),
 * or null when it names nothing; `source` is the client address.
 */
export interface Attempt {
  account: string | null;
  source: string;
  /**
   * The device id of a valid device cookie for `account` (device-cookie.ts): a browser that signed
   * in to it before. Its attempts are counted per device instead of per address, and the address
   * and account budgets do not bind it.
   */
  device?: string | null;
}

/**
 * `lock-first`: guessable secrets and sign-ins are refused while locked, before they are checked.
 * `verify-first`: tokens presented with every request are verified first (nobody guesses their
 * keys), so a valid one never waits on the counters; a failure counts, and answers 429 once locked.
 */
export type CheckOrder = 'lock-first' | 'verify-first';

/**
 * How long an address stays known to an account after a sign-in from it (each sign-in renews it).
 * In-memory counters expire by timer, and node's timers end within 2^31 ms (24.8 days).
 */
const knownSourceSeconds = 14 * 86_400;

interface Keys {
  source: string;
  account: string | null;
  /** Whose consecutive failures lock: the account from this address, or from this trusted device. */
  pair: string | null;
  trusted: boolean;
}

const keysOf = ({ account, source, device }: Attempt): Keys => ({
  source: keyDigest(`source\n${source}`),
  account: account === null ? null : keyDigest(`account\n${account}`),
  pair: account === null ? null : device ? keyDigest(`device\n${account}\n${device}`) : keyDigest(`pair\n${account}\n${source}`),
  trusted: account !== null && !!device,
});

export const tooManyFailures = (waitMs: number) =>
  new AppError('TOO_MANY_REQUESTS', 'too many failed sign-ins; try again later', {
    headers: { 'Retry-After': String(Math.max(1, Math.ceil(waitMs / 1000))) },
  });

/** The answer of a consume that went over the limit (rate-limiter-flexible rejects with it). */
const overLimit = (outcome: unknown) => {
  if (outcome instanceof RateLimiterRes) return outcome;
  throw outcome;
};

export class CredentialThrottle {
  /** Consecutive failures of an account from an address. */
  private runs: RateLimiterAbstract;
  /** A pair's current lock. */
  private locks: RateLimiterAbstract;
  private sources: RateLimiterAbstract;
  private accounts: RateLimiterAbstract;
  /** Pairs that signed in successfully. */
  private known: RateLimiterAbstract;

  constructor(
    limiters: Limiters,
    private settings: Config['signinThrottle'],
  ) {
    const window = settings.windowSeconds;
    this.runs = limiters.counter({ name: 'signin-run', points: settings.maxFailures, durationSeconds: window });
    this.locks = limiters.counter({ name: 'signin-lock', points: 1, durationSeconds: settings.maxLockSeconds });
    // An address past its budget is refused from memory: a flood of bad tokens costs no Redis call.
    this.sources = limiters.counter({ name: 'signin-source', points: settings.addressMaxFailures, durationSeconds: window, blockInMemory: true });
    this.accounts = limiters.counter({ name: 'signin-account', points: settings.accountMaxFailures, durationSeconds: window });
    this.known = limiters.counter({ name: 'signin-known', points: 1, durationSeconds: knownSourceSeconds });
  }

  /**
   * Runs `verify`, which throws CredentialRejected for a credential that does not verify; 429 with
   * Retry-After while the attempt must wait (see CheckOrder).
   */
  async check<T>(attempt: Attempt, verify: () => T | Promise<T>, order: CheckOrder = 'lock-first'): Promise<T> {
    const keys = keysOf(attempt);
    let known: boolean | undefined;
    if (order === 'lock-first') {
      const state = await this.state(keys);
      if (state.waitMs > 0) throw tooManyFailures(state.waitMs);
      known = state.known;
    }
    let result: T;
    try {
      result = await verify();
    } catch (error) {
      if (!(error instanceof CredentialRejected)) throw error;
      const waitMs = await this.failed(keys, known);
      if (order === 'verify-first' && waitMs > 0) throw tooManyFailures(waitMs);
      throw error;
    }
    if (order === 'lock-first' && keys.pair) await this.succeeded(keys.pair);
    return result;
  }

  /** How long this attempt must wait (0: it may try now), and whether its address is known to the account. */
  private async state(keys: Keys): Promise<{ waitMs: number; known: boolean }> {
    const [lock, known, source, account] = await Promise.all([
      keys.pair ? this.locks.get(keys.pair) : null,
      keys.pair ? this.known.get(keys.pair) : null,
      this.sources.get(keys.source),
      keys.account ? this.accounts.get(keys.account) : null,
    ]);
    let waitMs = lock && lock.consumedPoints > 0 ? lock.msBeforeNext : 0;
    if (!known && !keys.trusted) {
      if (source && source.consumedPoints >= this.settings.addressMaxFailures) waitMs = Math.max(waitMs, source.msBeforeNext);
      if (account && account.consumedPoints >= this.settings.accountMaxFailures) waitMs = Math.max(waitMs, account.msBeforeNext);
    }
    return { waitMs, known: !!known || keys.trusted };
  }

  /** Counts a failure; how long the attempt's next try must wait. */
  private async failed(keys: Keys, knownHint: boolean | undefined): Promise<number> {
    const known = knownHint ?? (keys.trusted || (keys.pair ? !!(await this.known.get(keys.pair)) : false));
    const [lockMs, source, account] = await Promise.all([
      keys.pair ? this.extendRun(keys.pair) : 0,
      this.sources.consume(keys.source).catch(overLimit),
      keys.account && !known ? this.accounts.penalty(keys.account) : null,
    ]);
    let waitMs = lockMs;
    if (!known) {
      // A consume refused from memory (the address was over already) counts nothing: 0 points.
      const sourceOver = source.consumedPoints >= this.settings.addressMaxFailures || source.consumedPoints === 0;
      if (sourceOver) waitMs = Math.max(waitMs, source.msBeforeNext);
      if (account && account.consumedPoints >= this.settings.accountMaxFailures) waitMs = Math.max(waitMs, account.msBeforeNext);
    }
    return waitMs;
  }

  /** One more consecutive failure of a pair; from `maxFailures` on it locks, twice as long each time. */
  private async extendRun(pair: string): Promise<number> {
    const run = await this.runs.penalty(pair);
    const over = run.consumedPoints - this.settings.maxFailures;
    if (over < 0) return 0;
    const seconds = Math.min(this.settings.lockSeconds * 2 ** Math.min(over, 30), this.settings.maxLockSeconds);
    await this.locks.block(pair, seconds);
    return seconds * 1000;
  }

  private async succeeded(pair: string) {
    await Promise.all([this.runs.delete(pair), this.known.set(pair, 1, knownSourceSeconds)]);
  }
}
