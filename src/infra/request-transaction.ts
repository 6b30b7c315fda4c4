import { AsyncLocalStorage } from 'node:async_hooks';
import type { Db, Tx } from './client.js';

// One database transaction for a whole request: what an Idempotency-Key needs to be exactly-once
// across a crash. The key's claim, every write the request makes and the answer kept under the key
// commit together, or none of them does (a process killed before the commit leaves nothing behind:
// PostgreSQL rolls the transaction back, and a retry runs the request once).
//
// The request's code is the same as anywhere else: the database client handed to every service
// (`routedDb`) sends each statement made inside the request to its transaction. A service's own
// transaction becomes a savepoint in it (its writes still roll back when it throws), and what is
// done once a transaction commits (publishing its events, enqueueing jobs) waits for the request's
// commit (`afterRequestCommit`), and is dropped when it rolls back.

interface RequestTransaction {
  tx: Tx;
  /** False once committed or rolled back: work the request left running falls back to the plain client. */
  open: boolean;
  afterCommit: Array<() => unknown>;
  savepoints: number;
}

const current = new AsyncLocalStorage<RequestTransaction>();

function openTransaction(): RequestTransaction | undefined {
  const store = current.getStore();
  return store?.open ? store : undefined;
}

/** True inside a request that runs in one transaction. */
export const inRequestTransaction = () => openTransaction() !== undefined;

/**
 * Runs `work` once the request's transaction commits, when called inside one (and answers true);
 * answers false elsewhere, where the caller does it now.
 */
export function afterRequestCommit(work: () => unknown): boolean {
  const store = openTransaction();
  if (!store) return false;
  store.afterCommit.push(work);
  return true;
}

/** The request's answer, and whether its transaction is to commit. */
export interface Outcome<T> {
  value: T;
  commit: boolean;
}

class RolledBack<T> {
  constructor(readonly value: T) {}
}

export interface RequestTransactionOptions {
  /** Longest the transaction may stay open: longer than any request takes. */
  timeoutMs: number;
}

/**
 * Runs `work` in one transaction on `db` (the client `routedDb` wraps), every statement made inside
 * it by any code going there; commits when it answers `commit`, rolls back otherwise (and when it
 * throws). Work deferred with `afterRequestCommit` runs once committed, outside the transaction.
 */
export async function inOneTransaction<T>(db: Db, work: (tx: Tx) => Promise<Outcome<T>>, options: RequestTransactionOptions): Promise<T> {
  let store: RequestTransaction | undefined;
  let value: T;
  try {
    value = await db.$transaction(
      async (tx) => {
        store = { tx, open: true, afterCommit: [], savepoints: 0 };
        const outcome = await current.run(store, () => work(tx));
        if (!outcome.commit) throw new RolledBack(outcome.value);
        return outcome.value;
      },
      { timeout: options.timeoutMs, maxWait: options.timeoutMs },
    );
  } catch (error) {
    if (store) store.open = false;
    if (error instanceof RolledBack) return error.value as T;
    throw error;
  } finally {
    if (store) store.open = false;
  }
  // Outside the request's context: what it starts uses the plain client.
  for (const deferred of store!.afterCommit) await current.exit(deferred);
  return value;
}

/** A savepoint for a service's own transaction inside the request's: its writes roll back when it throws. */
async function savepoint<T>(store: RequestTransaction, work: (tx: Tx) => Promise<T>): Promise<T> {
  const name = `service_${++store.savepoints}`;
  await store.tx.$executeRawUnsafe(`SAVEPOINT ${name}`);
  try {
    const value = await work(store.tx);
    await store.tx.$executeRawUnsafe(`RELEASE SAVEPOINT ${name}`);
    return value;
  } catch (error) {
    await store.tx.$executeRawUnsafe(`ROLLBACK TO SAVEPOINT ${name}`).catch(() => {});
    throw error;
  }
}

/**
 * The client every service holds: `db` itself, except inside a request that runs in one
 * transaction, where each statement goes to that transaction.
 */
export function routedDb(db: Db): Db {
  const bound = new Map<PropertyKey, unknown>();
  return new Proxy(db, {
    get(target, property) {
      const store = openTransaction();
      if (!store) {
        const value = Reflect.get(target, property, target);
        if (typeof value !== 'function') return value;
        let method = bound.get(property);
        if (!method) bound.set(property, (method = value.bind(target)));
        return method;
      }
      if (property === '$transaction') {
        return (arg: unknown) =>
          Array.isArray(arg)
            ? savepoint(store, async () => {
                const results: unknown[] = [];
                for (const statement of arg) results.push(await statement);
                return results;
              })
            : savepoint(store, arg as (tx: Tx) => Promise<unknown>);
      }
      const value = Reflect.get(store.tx, property, store.tx);
      return typeof value === 'function' ? value.bind(store.tx) : value;
    },
  });
}
