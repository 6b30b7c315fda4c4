import jwt from 'jsonwebtoken';

/** setTimeout takes at most this (about 24.8 days). */
const maxTimerMs = 2 ** 31 - 1;

/** When the token of an Authorization header expires (ms since the epoch), or null. */
export function tokenExpiry(authorization: string | null | undefined): number | null {
  const match = /^(?:jwt|bearer)\s+(\S+)$/i.exec(authorization?.trim() ?? '');
  if (!match) return null;
  const claims = jwt.decode(match[1]);
  const exp = claims && typeof claims === 'object' ? claims.exp : undefined;
  return typeof exp === 'number' ? exp * 1000 : null;
}

/** Runs `work` at `time` (ms since the epoch), however far away; returns a handle to clear. */
export function at(time: number, work: () => void): NodeJS.Timeout {
  const wait = time - Date.now();
  if (wait > maxTimerMs) return setTimeout(() => at(time, work), maxTimerMs).unref();
  return setTimeout(work, Math.max(0, wait)).unref();
}
