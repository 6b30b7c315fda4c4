import { AsyncLocalStorage } from 'node:async_hooks';

// The request a piece of work runs for: set once where node hands the request over, it follows
// the request through every await, so each log line written on its behalf (in a lane, yoga, a
// service, the database layer) and each error body carries its id without passing a child logger
// down every call. It also keeps what a request reads more than once (`perRequest`): the project
// a role check reads and the resolver reads again is one query, not two.
interface RequestScope {
  id: string;
  kept?: Map<string, unknown>;
  /** Who the request acts for and from where, once authenticated: what the audit log records. */
  actor?: RequestActor;
  /** The request's progress as the database's admission control sees it (connection-admission.ts). */
  progress: RequestProgress;
}

/**
 * Whether a request has begun: set once it first holds a database connection (before which
 * nothing of it was written), and it is then finished rather than refused. Answered: work it
 * left running (a listener of its events) is background work from then on.
 */
export interface RequestProgress {
  begun: boolean;
  answered: boolean;
  /**
   * Whether the request writes (a REST call other than GET, a GraphQL mutation): the pool keeps
   * connections for writes that reads may not take (connection-admission.ts).
   */
  writes: boolean;
}

/** The caller a request acts for, as the audit log names it. */
export interface RequestActor {
  kind: 'account' | 'api_key' | 'bot';
  id: string;
  name: string | null;
  address: string | null;
}
const requestScope = new AsyncLocalStorage<RequestScope>();

/** Runs `work` on behalf of the request `requestId`. */
export function inRequestScope<T>(requestId: string, work: () => T, options: { writes: boolean } = { writes: true }): T {
  return requestScope.run({ id: requestId, progress: { begun: false, answered: false, writes: options.writes } }, work);
}

/** Notes that the current request only reads (a GraphQL query sent by POST), once that is known. */
export function noteRequestReadsOnly() {
  const progress = requestScope.getStore()?.progress;
  if (progress) progress.writes = false;
}

/** The progress of the request the current work runs for while it is being answered; undefined in background work. */
export function requestInProgress(): RequestProgress | undefined {
  const progress = requestScope.getStore()?.progress;
  return progress && !progress.answered ? progress : undefined;
}

/** The id of the request the current work runs for, if any. */
export function currentRequestId(): string | undefined {
  return requestScope.getStore()?.id;
}

/** The value `make` made for `key` earlier in this request, else made now (and kept for the rest of it); outside a request, made each time. */
export function perRequest<T>(key: string, make: () => T): T {
  const scope = requestScope.getStore();
  if (!scope) return make();
  scope.kept ??= new Map();
  if (scope.kept.has(key)) return scope.kept.get(key) as T;
  const value = make();
  scope.kept.set(key, value);
  return value;
}

/** Drops what this request kept for `key` (the request changed it). */
export function forgetPerRequest(key: string) {
  requestScope.getStore()?.kept?.delete(key);
}

/** Notes who the current request acts for (the context does, once it has authenticated the caller). */
export function noteRequestActor(actor: RequestActor) {
  const scope = requestScope.getStore();
  if (scope) scope.actor = actor;
}

/** Who the current request acts for; undefined in background work and before authentication. */
export function currentRequestActor(): RequestActor | undefined {
  return requestScope.getStore()?.actor;
}
