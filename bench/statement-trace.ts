// Every SQL statement a process sends, timed at the driver: pg.Client#query (pool.query and
// Prisma's adapter included) is wrapped once, and statements are recorded while a trace is open.
import pg from 'pg';

export interface TracedStatement {
  text: string;
  ms: number;
  /** When it was sent, ms after the trace started. */
  at: number;
}

let trace: TracedStatement[] | null = null;
let traceStarted = 0;

/** Starts recording (dropping what an earlier trace held). */
export function startTrace() {
  trace = [];
  traceStarted = performance.now();
}

/** Stops recording and answers what was sent meanwhile. */
export function stopTrace(): TracedStatement[] {
  const taken = trace ?? [];
  trace = null;
  return taken;
}

const query = pg.Client.prototype.query as (...args: unknown[]) => unknown;
(pg.Client.prototype as { query: unknown }).query = function (this: pg.Client, ...args: unknown[]) {
  const config = args[0] as string | { text?: string; name?: string };
  const text = typeof config === 'string' ? config : (config?.text ?? config?.name ?? '?');
  const started = performance.now();
  const record = () => trace?.push({ text: String(text).replace(/\s+/g, ' ').slice(0, Number(process.env.TRACE_TEXT ?? 110)), ms: performance.now() - started, at: started - traceStarted });
  const last = args.length - 1;
  if (typeof args[last] === 'function') {
    const callback = args[last] as (...a: unknown[]) => void;
    args[last] = (...a: unknown[]) => {
      record();
      callback(...a);
    };
    return query.apply(this, args);
  }
  const result = query.apply(this, args);
  if (result && typeof (result as Promise<unknown>).then === 'function') (result as Promise<unknown>).then(record, record);
  else if (config && typeof (config as { callback?: unknown }).callback === 'function') {
    const submittable = config as { callback: (...a: unknown[]) => void };
    const callback = submittable.callback;
    submittable.callback = (...a: unknown[]) => {
      record();
      callback(...a);
    };
  }
  return result;
};
