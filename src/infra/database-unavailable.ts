// Whether an error means the database could not be reached or dropped the connection a statement
// ran on (a restart, a failover, a pgbouncer restart, pg_terminate_backend, idle_session_timeout,
// a reset or a hang), as opposed to a statement the database refused: the request that met it
// answers 503 with Retry-After (the next one finds a new connection), not 500.
//
// The error may come straight from the driver (pg), or wrapped by the ORM (its known-request
// errors keep the driver adapter's error under `meta.driverAdapterError`, whose `cause` has a
// `kind` and, for PostgreSQL's own refusals, its SQLSTATE `code`).

/** Seconds a client told 503 for this is asked to wait (Retry-After). */
export const databaseRetryAfterSeconds = 1;

/**
 * SQLSTATE codes of connection trouble: class 08 (connection exception), 57P01-57P03 (the server
 * shutting down or starting), 53300 (too many connections) and 25P02 (a statement in the
 * transaction failed already: what a transaction whose connection failed says to the next one).
 */
const transientStates = /^(08\d\d\d|57P0[1-3]|53300|25P02)$/;

/** The ORM's codes for the same: unreachable, timed out, connection closed, pool timeout, a transaction gone with its connection. */
const transientPrismaCodes = new Set(['P1001', 'P1002', 'P1008', 'P1017', 'P2024', 'P2028']);

/** The driver adapter's kinds for the same. */
const transientKinds = new Set(['ConnectionClosed', 'DatabaseNotReachable', 'SocketTimeout', 'TooManyConnections']);

const socketCodes = new Set(['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT', 'ECONNABORTED', 'EHOSTUNREACH', 'ENETUNREACH']);

/** Messages of the driver (pg, pg-pool) when a connection ends or cannot be had, and of the pools' admission control (connection-admission.ts). */
const transientMessages =
  /connections are all busy|Connection terminated|connection error and is not queryable|Client was closed and is not queryable|terminating connection|timeout exceeded when trying to connect|Server has closed the connection|Can't reach database server|current transaction is aborted|Cannot use a pool after calling end/i;

export function isDatabaseUnavailable(error: unknown): boolean {
  const seen = new Set<unknown>();
  const queue: unknown[] = [error];
  while (queue.length) {
    const at = queue.shift();
    if (!at || typeof at !== 'object' || seen.has(at) || seen.size > 20) continue;
    seen.add(at);
    const e = at as { code?: unknown; kind?: unknown; message?: unknown; cause?: unknown; originalError?: unknown; meta?: { driverAdapterError?: unknown; code?: unknown } };
    if (typeof e.code === 'string' && (transientStates.test(e.code) || transientPrismaCodes.has(e.code) || socketCodes.has(e.code))) return true;
    if (typeof e.kind === 'string' && (transientKinds.has(e.kind) || (e.kind === 'postgres' && typeof e.code === 'string' && transientStates.test(e.code)))) return true;
    if (typeof e.message === 'string' && transientMessages.test(e.message)) return true;
    queue.push(e.cause, e.originalError, e.meta?.driverAdapterError);
    if (typeof e.meta?.code === 'string' && transientStates.test(e.meta.code)) return true;
  }
  return false;
}
