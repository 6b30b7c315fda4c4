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
//
// Writes first: a few connections (`reservedForWrites`) are for requests that write (a REST call
// other than GET, a GraphQL mutation) and are never handed to a read, so a post is not queued
// behind a console full of readers (issue 39: 200 agents reading the inbox back to back held every
// connection and a post waited its turn, p99 571 ms). Reads keep the rest; background work (the
// event consumers) counts as a read.

/** Background work that is begun as a request is (see `asBegunWork`). */
const begunWork = new AsyncLocalStorage<RequestProgress>();

/**
 * Runs `work` as begun work: each connection it asks for waits its turn ahead of the requests not
 * yet begun, and is never refused for a busy pool. For the event consumers' one slot: it holds a
 * connection or two at a time, so requests keep the others, and a flood of requests no longer
 * refuses it batch after batch, which left the knowledge loop a minute behind 50 closes a second.
 */
export function asBegunWork<T>(work: () => Promise<T>): Promise<T> {
  return begunWork.run({ begun: true, answered: false, writes: false }, work);
}

/** The message of the refusal, which isDatabaseUnavailable counts as a moment's outage (503). */
export const connectionsBusyMessage = "the database's connections are all busy";

interface Waiter {
  request: RequestProgress | undefined;
  resolve(read: boolean): void;
  reject(error: Error): void;
  timer?: NodeJS.Timeout;
}

type ConnectCallback = (error: Error | undefined, client: pg.PoolClient | undefined, done: (release?: Error | boolean) => void) => void;

export interface AdmittingPoolConfig extends pg.PoolConfig {
  /** Longest a request not yet begun (and background work) waits for a connection before it is refused. */
  admissionTimeoutMs?: number;
  /** Connections only requests that write may take (see above); 0 by default. */
  reservedForWrites?: number;
}

export class AdmittingPool extends pg.Pool {
  private free: number;
  /** Begun requests, first come first served, before any of `arriving`. */
  private readonly finishing: Waiter[] = [];
  private readonly arriving: Waiter[] = [];
  private readonly admissionTimeoutMs: number | undefined;
  private readonly reserved: number;
  private readonly size: number;
  /** Connections out to reads (and background work). */
  private readsHeld = 0;

  constructor(config: AdmittingPoolConfig) {
    super(config);
    this.size = config.max ?? 10;
    this.free = this.size;
    this.admissionTimeoutMs = config.admissionTimeoutMs;
    this.reserved = Math.min(config.reservedForWrites ?? 0, this.free - 1);
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
    const request = begunWork.getStore() ?? requestInProgress();
    // Whether it was taken as a read, as it is given back (a request may be noted a read later).
    const read = await this.admit(request);
    let client: pg.PoolClient;
    try {
      client = await super.connect();
    } catch (error) {
      this.handOn(read);
      throw error;
    }
    // The pool makes a new `release` at each checkout, which may be called once.
    const release = client.release;
    client.release = (failure?: Error | boolean) => {
      release.call(client, failure);
      this.handOn(read);
    };
    return client;
  }

  /**
   * Resolves once a connection is this caller's to take (true: taken as a read); refuses a caller
   * not yet begun that waited too long.
   */
  private admit(request: RequestProgress | undefined): Promise<boolean> {
    if (this.mayTake(request)) return Promise.resolve(this.take(request));
    return new Promise<boolean>((resolve, reject) => {
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

  /** Whether a free connection is the caller's to take: reads hold at most the ones not kept for writes. */
  private mayTake(request: RequestProgress | undefined) {
    return this.free > 0 && (request?.writes || this.readsHeld < this.size - this.reserved);
  }

  /** Takes a free connection for `request`; true when taken as a read. */
  private take(request: RequestProgress | undefined) {
    this.free--;
    if (request) request.begun = true;
    const read = !request?.writes;
    if (read) this.readsHeld++;
    return read;
  }

  /**
   * A connection came back: the longest waiting begun request that may take it does, else the
   * longest waiting other that may.
   */
  private handOn(read: boolean) {
    this.free++;
    if (read) this.readsHeld--;
    const next = this.takeWaiter(this.finishing) ?? this.takeWaiter(this.arriving);
    if (!next) return;
    clearTimeout(next.timer);
    next.resolve(this.take(next.request));
  }

  private takeWaiter(queue: Waiter[]): Waiter | undefined {
    const at = queue.findIndex((waiter) => this.mayTake(waiter.request));
    return at < 0 ? undefined : queue.splice(at, 1)[0];
  }
}
