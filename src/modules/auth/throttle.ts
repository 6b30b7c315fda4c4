// Counts failed sign-ins per key (an e-mail or a client address) within a window.
// In-process: each node throttles what it sees; that bounds guessing per node.
export class FailureThrottle {
  private failures = new Map<string, { count: number; resetAt: number }>();

  constructor(
    readonly maxFailures: number,
    private windowMs: number,
  ) {}

  /** Seconds until the key may try again, or 0 when it may now. */
  retryAfter(key: string, limit = this.maxFailures, now = Date.now()): number {
    const entry = this.failures.get(key);
    if (!entry || entry.resetAt <= now) return 0;
    return entry.count >= limit ? Math.ceil((entry.resetAt - now) / 1000) : 0;
  }

  fail(key: string, now = Date.now()) {
    const entry = this.failures.get(key);
    if (!entry || entry.resetAt <= now) this.failures.set(key, { count: 1, resetAt: now + this.windowMs });
    else entry.count += 1;
    if (this.failures.size > 100_000) this.prune(now);
  }

  clear(key: string) {
    this.failures.delete(key);
  }

  private prune(now: number) {
    for (const [key, entry] of this.failures) if (entry.resetAt <= now) this.failures.delete(key);
  }
}
