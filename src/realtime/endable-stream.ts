import type { ExecutionResult, GraphQLError } from 'graphql';
import { AppError } from '../errors.js';

/**
 * A subscription's stream of results that the server can end: `end(error)` makes that error the
 * client's next (and last) result, and the stream completes. Whatever the source produces after
 * that is dropped, and the source is closed at once. An error of our family thrown by the source
 * (a refused resume, say) ends it the same way, so the client reads its code on every transport
 * (a graphql-ws `next` then `complete`, an SSE `next` then `complete`).
 */
export class EndableStream implements AsyncIterableIterator<ExecutionResult> {
  private iterator: AsyncIterator<ExecutionResult>;
  /** The consumer's pending `next`, while the source has not answered it. */
  private waiting: ((result: IteratorResult<ExecutionResult>) => void) | null = null;
  private last: ExecutionResult | null = null;
  private done = false;
  private closed = false;

  constructor(
    source: AsyncIterable<ExecutionResult>,
    /** Called once when the stream ends, however it ends. */
    private onClose: () => void,
  ) {
    this.iterator = source[Symbol.asyncIterator]();
  }

  get ended() {
    return this.closed;
  }

  next(): Promise<IteratorResult<ExecutionResult>> {
    if (this.last) {
      const value = this.last;
      this.last = null;
      this.done = true;
      return Promise.resolve({ value, done: false });
    }
    if (this.done) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve, reject) => {
      this.waiting = resolve;
      this.iterator.next().then(
        (result) => {
          if (this.waiting !== resolve) return; // ended meanwhile: nothing more goes out
          this.waiting = null;
          if (result.done) {
            this.done = true;
            this.finish();
          }
          resolve(result);
        },
        (error: unknown) => {
          if (this.waiting !== resolve) return;
          this.waiting = null;
          this.done = true;
          this.finish();
          if (error instanceof AppError) resolve({ value: { errors: [error] }, done: false });
          else reject(error);
        },
      );
    });
  }

  /** Ends the stream with `error` as its last result; the source is released now. */
  end(error: GraphQLError) {
    if (this.closed) return;
    const value: ExecutionResult = { errors: [error] };
    const waiting = this.waiting;
    this.waiting = null;
    if (waiting) {
      this.done = true;
      waiting({ value, done: false });
    } else {
      this.last = value;
    }
    this.finish();
  }

  return(): Promise<IteratorResult<ExecutionResult>> {
    this.done = true;
    this.last = null;
    const waiting = this.waiting;
    this.waiting = null;
    waiting?.({ value: undefined, done: true });
    this.finish();
    return Promise.resolve({ value: undefined, done: true });
  }

  throw(error: unknown): Promise<IteratorResult<ExecutionResult>> {
    void this.return();
    return Promise.reject(error);
  }

  [Symbol.asyncIterator]() {
    return this;
  }

  private finish() {
    if (this.closed) return;
    this.closed = true;
    this.onClose();
    // Releases the project feed now; a source's own return may wait for its next event.
    void Promise.resolve(this.iterator.return?.()).catch(() => undefined);
  }
}
