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

export interface HttpLoadOptions {
  url: string;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  connections: number;
  seconds: number;
}

export interface HttpLoadResult {
  throughput: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
}

/**
 * Drives HTTP load from a separate process (autocannon), so the generator does not take the
 * server's event loop; a short warm-up run comes first.
 */
export async function httpLoad(options: HttpLoadOptions): Promise<HttpLoadResult> {
  const { spawn } = await import('node:child_process');
  const { createRequire } = await import('node:module');
  const bin = createRequire(import.meta.url).resolve('autocannon/autocannon.js');
  const run = (seconds: number) =>
    new Promise<HttpLoadResult>((resolve, reject) => {
      const args = [bin, '-j', '-c', String(options.connections), '-d', String(seconds), '-m', options.method ?? 'GET'];
      for (const [k, v] of Object.entries(options.headers ?? {})) args.push('-H', `${k}=${v}`);
      if (options.body) args.push('-b', options.body);
      args.push(options.url);
      const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      child.stdout.on('data', (d) => (out += d));
      child.on('error', reject);
      child.on('exit', () => {
        try {
          const r = JSON.parse(out);
          resolve({
            throughput: r.requests.average,
            p50: r.latency.p50,
            p99: r.latency.p99,
            errors: r.errors + r.timeouts,
            non2xx: r.non2xx,
          });
        } catch (error) {
          reject(error);
        }
      });
    });
  await run(2);
  return run(options.seconds);
}
