import type { EventLog, LoggedEvent } from '../infra/event-log.js';

/**
 * How a resume (`after`) is bounded, per node: a subscription replays at most `maxEvents` events of
 * the project, read `page` at a time, the next page only once the client has taken the previous
 * one; at most `readsAtOnce` pages of all the node's replays are read at once (the others wait
 * their turn, in order).
 */
export interface ReplayBounds {
  maxEvents: number;
  page: number;
  readsAtOnce: number;
  /**
   * Replayed events the node's replays deliver together before they let the event loop turn:
   * a page kept in memory is otherwise delivered, and sent, in one run of microtasks.
   */
  perTurn: number;
}

export const defaultReplayBounds: ReplayBounds = { maxEvents: 10_000, page: 200, readsAtOnce: 2, perTurn: 100 };

/**
 * Pages of the log for replays. Pages are aligned on multiples of the page size, so replays of the
 * same history (a hundred consoles resuming at once) read each page once: a full page never
 * changes (sequence numbers have no gaps and events are never rewritten), and the last ones read
 * are kept. Reads take turns: a few at once, the rest queued in order; deliveries are paced
 * (`pace`), so many replays together hold the event loop no longer than `perTurn` events.
 */
class ReplayPages {
  private reading = 0;
  private queue: Array<() => void> = [];
  private kept = new Map<string, LoggedEvent[]>();
  /** Reads in flight, shared by the replays that need the same page at once. */
  private reads = new Map<string, Promise<LoggedEvent[]>>();
  private static keptPages = 64;
  /** Replayed events delivered in this turn of the event loop, and the next turn once they are too many. */
  private spent = 0;
  private nextTurn: Promise<void> | null = null;

  constructor(
    private eventLog: EventLog,
    readonly bounds: ReplayBounds,
  ) {}

  /** Events after `after`, up to the next page boundary. */
  async read(projectId: string, after: number): Promise<LoggedEvent[]> {
    const limit = (Math.floor(after / this.bounds.page) + 1) * this.bounds.page - after;
    const key = `${projectId}:${after}:${limit}`;
    const kept = this.kept.get(key);
    if (kept) return kept;
    let read = this.reads.get(key);
    if (!read) {
      read = this.turn(() => this.eventLog.readAfter(projectId, after, limit)).finally(() => this.reads.delete(key));
      this.reads.set(key, read);
    }
    const events = await read;
    if (events.length === limit) {
      this.kept.set(key, events);
      if (this.kept.size > ReplayPages.keptPages) this.kept.delete(this.kept.keys().next().value!);
    }
    return events;
  }

  /** Null while this turn of the event loop has room for another replayed event; else the next turn. */
  pace(): Promise<void> | null {
    if (this.nextTurn) return this.nextTurn;
    if (++this.spent < this.bounds.perTurn) return null;
    this.nextTurn = new Promise((resolve) =>
      setImmediate(() => {
        this.spent = 0;
        this.nextTurn = null;
        resolve();
      }),
    );
    return this.nextTurn;
  }

  private async turn<T>(work: () => Promise<T>): Promise<T> {
    if (this.reading < this.bounds.readsAtOnce) this.reading++;
    else await new Promise<void>((resolve) => this.queue.push(resolve));
    try {
      return await work();
    } finally {
      const next = this.queue.shift();
      // Handed over on a later turn of the event loop, so requests waiting for it get theirs.
      if (next) setImmediate(next);
      else this.reading--;
    }
  }
}

const replayPages = new WeakMap<EventLog, ReplayPages>();

export function replayPagesOf(eventLog: EventLog): ReplayPages {
  let pages = replayPages.get(eventLog);
  if (!pages) replayPages.set(eventLog, (pages = new ReplayPages(eventLog, defaultReplayBounds)));
  return pages;
}

/** Sets the replay bounds of the node that owns `eventLog` (from its configuration). */
export function configureReplay(eventLog: EventLog, bounds: Partial<ReplayBounds>) {
  replayPages.set(eventLog, new ReplayPages(eventLog, { ...defaultReplayBounds, ...bounds }));
}
