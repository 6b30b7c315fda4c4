// Load generation and statistics shared by the benchmarks.
import { readFileSync, readdirSync } from 'node:fs';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** A JSON call to a benchmarked server; anything but 200 throws with the answer. */
export async function json(url: string, method: string, token: string | undefined, body?: unknown) {
  const send = () =>
    fetch(url, {
      method,
      headers: { 'content-type': 'application/json', ...(token ? { authorization: token } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  // A kept-alive connection idle for a while may be closed by the server just as it is reused.
  const response = await send().catch(send);
  const text = await response.text();
  if (response.status !== 200) throw new Error(`${method} ${url}: ${response.status} ${text}`);
  return JSON.parse(text);
}

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

/**
 * Starts `task` `rate` times a second for `durationMs` (an open loop: a slow answer does not delay
 * the next call, as clients that do not wait for each other), after a warm-up; latencies in ms.
 */
export async function runAtRate(options: { rate: number; durationMs: number; warmupMs?: number; task: (iteration: number) => Promise<boolean | void> }): Promise<LoadResult> {
  let iteration = 0;
  const run = async (durationMs: number, record: boolean) => {
    const latencies: number[] = [];
    let errors = 0;
    const calls: Promise<void>[] = [];
    const started = performance.now();
    for (let n = 0; n < Math.round((durationMs / 1000) * options.rate); n++) {
      const due = started + (n * 1000) / options.rate;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      const t0 = performance.now();
      calls.push(
        options.task(iteration++).then(
          (ok) => {
            if (ok === false) errors++;
            else if (record) latencies.push(performance.now() - t0);
          },
          () => void errors++,
        ),
      );
    }
    await Promise.all(calls);
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
  /**
   * The load generator: autocannon (a Node process, the default), wrk (C; Debian package `wrk`) or
   * node (bench/http-load.ts). wrk takes a fraction of the CPU per request that autocannon does,
   * CPU the server and its database would otherwise share with it on the same machine; node, a
   * minimal keep-alive client, comes close, and is used for wrk where wrk is not installed.
   */
  tool?: LoadTool;
  /** Connection i sends to the i-th of these (in turn) in place of `url`, with these headers added (the node tool). */
  perConnection?: Array<{ url: string; headers?: Record<string, string> }>;
}

export interface HttpLoadResult {
  throughput: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
}

/**
 * Drives HTTP load from a separate process (autocannon, or wrk: see `tool`), so the generator does
 * not take the server's event loop; a short warm-up run comes first.
 */
export async function httpLoad(options: HttpLoadOptions): Promise<HttpLoadResult> {
  const tool = await loadTool(options);
  const generator = tool === 'wrk' ? wrkGenerator(options) : tool === 'node' ? nodeGenerator(options) : await autocannonGenerator(options);
  try {
    await runJson(generator.command, generator.args(2));
    return generator.result(await runJson(generator.command, generator.args(options.seconds)));
  } finally {
    generator.dispose?.();
  }
}

export type LoadTool = 'autocannon' | 'wrk' | 'node';

/** The load generator `httpLoad` will use for these options. */
export async function loadTool(options: Pick<HttpLoadOptions, 'tool' | 'perConnection'>): Promise<LoadTool> {
  if (options.perConnection) return 'node';
  if (options.tool === 'wrk') return wrkInstalled() ? 'wrk' : 'node';
  return options.tool ?? 'autocannon';
}

interface LoadGenerator {
  command: string;
  args(seconds: number): string[];
  /** The result from the JSON object the command printed last. */
  result(json: any): HttpLoadResult;
  dispose?(): void;
}

async function autocannonGenerator(options: HttpLoadOptions): Promise<LoadGenerator> {
  const { createRequire } = await import('node:module');
  const bin = createRequire(import.meta.url).resolve('autocannon/autocannon.js');
  return {
    command: process.execPath,
    args(seconds) {
      const args = [bin, '-j', '-c', String(options.connections), '-d', String(seconds), '-m', options.method ?? 'GET'];
      for (const [k, v] of Object.entries(options.headers ?? {})) args.push('-H', `${k}=${v}`);
      if (options.body) args.push('-b', options.body);
      return [...args, options.url];
    },
    result: (r) => ({ throughput: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, errors: r.errors + r.timeouts, non2xx: r.non2xx }),
  };
}

let wrkFound: boolean | undefined;
function wrkInstalled(): boolean {
  return (wrkFound ??= spawnSync('wrk', ['--version']).error === undefined);
}

/** A Lua string literal of any text (a long bracket no text here contains). */
const luaString = (text: string) => `[==[${text}]==]`;

/** wrk with one thread and a Lua script that sets the request and prints JSON at the end. */
function wrkGenerator(options: HttpLoadOptions): LoadGenerator {
  const dir = mkdtempSync(path.join(tmpdir(), 'wrk-'));
  const script = path.join(dir, 'load.lua');
  writeFileSync(
    script,
    [
      `wrk.method = ${luaString(options.method ?? 'GET')}`,
      ...(options.body ? [`wrk.body = ${luaString(options.body)}`] : []),
      ...Object.entries(options.headers ?? {}).map(([k, v]) => `wrk.headers[ ${luaString(k)} ] = ${luaString(v)}`),
      'function done(summary, latency, requests)',
      '  local e = summary.errors',
      '  io.write(string.format(\'{"requests":%d,"micros":%d,"p50":%d,"p99":%d,"errors":%d,"non2xx":%d}\\n\',',
      '    summary.requests, summary.duration, latency:percentile(50), latency:percentile(99),',
      '    e.connect + e.read + e.write + e.timeout, e.status))',
      'end',
    ].join('\n'),
  );
  return {
    command: 'wrk',
    args: (seconds) => ['-t1', `-c${options.connections}`, `-d${seconds}s`, '--timeout', '10s', '-s', script, options.url],
    result: microsResult,
    dispose: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** bench/http-load.ts in a Node process of its own. */
function nodeGenerator(options: HttpLoadOptions): LoadGenerator {
  const script = fileURLToPath(new URL('./http-load.ts', import.meta.url));
  return {
    command: process.execPath,
    args: (seconds) => [
      '--import',
      'tsx',
      script,
      JSON.stringify({
        url: options.url,
        method: options.method ?? 'GET',
        headers: options.headers ?? {},
        body: options.body,
        connections: options.connections,
        seconds,
        perConnection: options.perConnection,
      }),
    ],
    result: microsResult,
  };
}

/** The result of wrk's script and of bench/http-load.ts: counts, run time and latencies in microseconds. */
function microsResult(r: { requests: number; micros: number; p50: number; p99: number; errors: number; non2xx: number }): HttpLoadResult {
  const ms = (micros: number) => Math.round(micros / 100) / 10;
  return {
    throughput: Math.round((r.requests / (r.micros / 1e6)) * 100) / 100,
    p50: ms(r.p50),
    p99: ms(r.p99),
    errors: r.errors,
    non2xx: r.non2xx,
  };
}

/** Runs a command to its end and reads the JSON object on the last line of it that holds one. */
function runJson(command: string, args: string[]): Promise<any> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('error', reject);
    child.on('close', () => {
      try {
        const line = out.trim().split('\n').reverse().find((l) => l.startsWith('{'));
        if (!line) throw new Error(`${command} printed no result: ${out}${err}`);
        resolve(JSON.parse(line));
      } catch (error) {
        reject(error);
      }
    });
  });
}

/**
 * CPU time (ms) so far of the PostgreSQL backends serving `database`, and of those that have ended
 * (the server process's count of its ended children: a closed connection's backend takes its time
 * with it, any database's, but nothing else runs during the benchmark); null where /proc cannot tell.
 */
export function postgresCpuMs(database: string): number | null {
  try {
    let ticks = 0;
    for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        if (!stat.includes('(postgres)')) continue;
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
        // utime and stime; for the server itself (not a backend), its ended children's too.
        if (cmdline.includes(` ${database} `)) ticks += Number(fields[11]) + Number(fields[12]);
        else if (!cmdline.startsWith('postgres:')) ticks += Number(fields[13]) + Number(fields[14]);
      } catch {
        // The process ended meanwhile.
      }
    }
    return ticks * 10; // USER_HZ is 100 on Linux.
  } catch {
    return null;
  }
}
