import type { LoggedEvent } from '../infra/event-log.js';

/**
 * The record a logged event is about, read once per node however many subscribers resolve the
 * event (a message fanned out to a thousand consoles costs one query, not a thousand).
 */
export class EventRecordCache<T> {
  private entries = new Map<string, Promise<T | null>>();

  constructor(
    private load: (event: LoggedEvent) => Promise<T | null>,
    private capacity = 5000,
  ) {}

  /** Remembers the record an event this node just committed is about, as written: no read when subscribers ask. */
  prime(event: LoggedEvent, record: T) {
    this.remember(event, Promise.resolve(record));
  }

  get(event: LoggedEvent): Promise<T | null> {
    let entry = this.entries.get(event.id);
    if (!entry) {
      entry = this.load(event);
      // A failed read is not remembered: the next subscriber tries again.
      entry.catch(() => this.entries.delete(event.id));
      this.remember(event, entry);
    }
    return entry;
  }

  private remember(event: LoggedEvent, entry: Promise<T | null>) {
    this.entries.set(event.id, entry);
    if (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value!);
  }
}
