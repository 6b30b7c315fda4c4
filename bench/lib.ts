// Load generation and statistics shared by the benchmarks.

export interface LoadResult {
  requests: number;
  errors: number;
  seconds: number;
  throughput: number;
  p50: number;
  p95: number;
  p99: number;
}

export function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return 0;
  const index = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return sorted[Math.max(0, index)];
}

export function summarize(latencies: number[], seconds: number, errors = 0): LoadResult {
  const sorted = [...latencies].sort((a, b) => a - b);
  const round = (n: number) => Math.round(n * 100) / 100;
  return {
    requests: latencies.length,
    errors,
    seconds: round(seconds),
    throughput: round(latencies.length / seconds),
    p50: round(percentile(sorted, 50)),
    p95: round(percentile(sorted, 95)),
    p99: round(percentile(sorted, 99)),
  };
}

/** Runs `task` from `concurrency` loops for `durationMs` after a warm-up; latencies in ms. */
export async function runLoad(options: {
  concurrency: number;
  durationMs: number;
  warmupMs?: number;
  task: (worker: number, iteration: number) => Promise<boolean | void>;
}): Promise<LoadResult> {
  const run = async (durationMs: number, record: boolean) => {
    const latencies: number[] = [];
    let errors = 0;
    const deadline = performance.now() + durationMs;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: options.concurrency }, async (_, worker) => {
        for (let i = 0; performance.now() < deadline; i++) {
          const t0 = performance.now();
          let ok: boolean | void = true;
          try {
            ok = await options.task(worker, i);
          } catch {
            ok = false;
          }
          if (ok === false) errors++;
          else if (record) latencies.push(performance.now() - t0);
        }
      }),
    );
    return summarize(latencies, (performance.now() - started) / 1000, errors);
  };
  if (options.warmupMs) await run(options.warmupMs, false);
  return run(options.durationMs, true);
}

export function printTable(title: string, rows: Record<string, unknown>[]) {
  console.log(`\n## ${title}`);
  console.table(rows);
}
