import { AsyncLocalStorage } from 'node:async_hooks';
import pg from 'pg';
import { requestInProgress, type RequestProgress } from './request-scope.js';

// Admission control at the database's connections. A node whose connections are all busy refuses
// new work up front (the request answers 503 with Retry-After, see database-unavailable.ts) and
// finishes the work it has begun: a request's first connection is its admission, and before it
// nothing of the request was written. Once a request has held a connection it has begun, and each
// connection it asks for after that (its answer read back after its write committed, its second
// write) waits its turn ahead of the requests not yet begun, and never fails for a busy pool: a
// committed close or post answered 503 would be sent again by its client, and done twice.
//
// The pool's own queue has one wait for everyone (connectionTimeoutMillis), and would give up on a
// begun request's read as on a new request's first statement; so the waiting is done here, and the
// pool is only asked for a connection when one is free (it then hands out an idle one, or opens one
// within connectionTimeoutMillis: a database that does not answer still fails the statement).

/** Background work that is begun as a request is (see `asBegunWork`). */
const begunWork = new AsyncLocalStorage<RequestProgress>();

/**
 * Runs `work` as begun work: each connection it asks for waits its turn ahead of the requests not
 * yet begun, and is never refused for a busy pool. For the event consumers' one slot: it holds a
 * connection or two at a time, so requests keep the others, and a flood of requests no longer
 * refuses it batch after batch, which left the knowledge loop a minute behind 50 closes a second.
 */
export function asBegunWork<T>(work: () => Promise<T>): Promise<T> {
  return begunWork.run({ begun: true, answered: false }, work);
}

/** The message of the refusal, which isDatabaseUnavailable counts as a moment's outage (503). */
export const connectionsBusyMessage = "the database's connections are all busy";

interface Waiter {
  request: RequestProgress | undefined;
  resolve(): void;
  reject(error: Error): void;
  timer?: NodeJS.Timeout;
}

type ConnectCallback = (error: Error | undefined, client: pg.PoolClient | undefined, done: (release?: Error | boolean) => void) => void;

export interface AdmittingPoolConfig extends pg.PoolConfig {
  /** Longest a request not yet begun (and background work) waits for a connection before it is refused. */
  admissionTimeoutMs?: number;
}

export class AdmittingPool extends pg.Pool {
  private free: number;
  /** Begun requests, first come first served, before any of `arriving`. */
  private readonly finishing: Waiter[] = [];
  private readonly arriving: Waiter[] = [];
  private readonly admissionTimeoutMs: number | undefined;

  constructor(config: AdmittingPoolConfig) {
    super(config);
    this.free = config.max ?? 10;
    this.admissionTimeoutMs = config.admissionTimeoutMs;
  }

  connect(): Promise<pg.PoolClient>;
  connect(callback: ConnectCallback): void;
  // The pool's own `query` asks with a callback.
  connect(callback?: ConnectCallback): Promise<pg.PoolClient> | void {
    const connected = this.checkout();
    if (!callback) return connected;
    connected.then(
      (client) => callback(undefined, client, client.release),
      (error: Error) => callback(error, undefined, () => {}),
    );
  }

  async end(): Promise<void>;
  async end(callback: () => void): Promise<void>;
  async end(callback?: () => void) {
    const error = new Error('Cannot use a pool after calling end on the pool');
    for (const waiter of this.finishing.splice(0).concat(this.arriving.splice(0))) {
      clearTimeout(waiter.timer);
      waiter.reject(error);
    }
    await super.end();
    callback?.();
  }

  private async checkout(): Promise<pg.PoolClient> {
    await this.admit(begunWork.getStore() ?? requestInProgress());
    let client: pg.PoolClient;
    try {
      client = await super.connect();
    } catch (error) {
      this.handOn();
      throw error;
    }
    // The pool makes a new `release` at each checkout, which may be called once.
    const release = client.release;
    client.release = (failure?: Error | boolean) => {
      release.call(client, failure);
      this.handOn();
    };
    return client;
  }

  /** Resolves once a connection is this caller's to take; refuses a caller not yet begun that waited too long. */
  private admit(request: RequestProgress | undefined): Promise<void> {
    if (this.free > 0) {
      this.free--;
      if (request) request.begun = true;
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      const waiter: Waiter = { request, resolve, reject };
      if (request?.begun) return void this.finishing.push(waiter);
      this.arriving.push(waiter);
      if (this.admissionTimeoutMs === undefined) return;
      waiter.timer = setTimeout(() => {
        this.arriving.splice(this.arriving.indexOf(waiter), 1);
        // Another statement of its request got a connection meanwhile: it has begun, and is finished.
        if (request?.begun && !request.answered) this.finishing.push(waiter);
        else reject(new Error(connectionsBusyMessage));
      }, this.admissionTimeoutMs);
      waiter.timer.unref();
    });
  }

  /** A connection came back: the longest waiting begun request takes it, else the longest waiting other. */
  private handOn() {
    const next = this.finishing.shift() ?? this.arriving.shift();
    if (!next) {
      this.free++;
      return;
    }
    clearTimeout(next.timer);
    if (next.request) next.request.begun = true;
    next.resolve();
  }
}
