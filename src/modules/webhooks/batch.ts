// Deliveries run by the dozen at once; their reads and writes are coalesced into one statement
// per event-loop turn instead of one round trip each.

interface Waiting<K, V> {
  key: K;
  resolve: (value: V) => void;
  reject: (error: unknown) => void;
}

/** Calls made during one turn of the event loop run together as one `run(keys)`; results by position. */
export class Batch<K, V> {
  private waiting: Array<Waiting<K, V>> = [];

  constructor(
    private run: (keys: K[]) => Promise<V[]>,
    private maxSize = 256,
  ) {}

  call(key: K): Promise<V> {
    return new Promise<V>((resolve, reject) => {
      this.waiting.push({ key, resolve, reject });
      if (this.waiting.length === 1) setImmediate(() => this.flush());
      else if (this.waiting.length >= this.maxSize) this.flush();
    });
  }

  private flush() {
    const batch = this.waiting.splice(0);
    if (!batch.length) return;
    this.run(batch.map((w) => w.key)).then(
      (values) => batch.forEach((w, i) => w.resolve(values[i])),
      (error) => batch.forEach((w) => w.reject(error)),
    );
  }
}
