// A server node in its own process for `bench sockets`, as test/helpers/node-process.ts, that can
// say where its time went: SIGUSR2 starts a measurement, the next SIGUSR2 ends it and prints one
// JSON line with its event loop's utilisation and delay (p50/p99/max) over that span; with
// BENCH_PROFILE=<directory> the span's CPU profile is written there as sockets-<pid>-<time>.cpuprofile.
import { mkdirSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import path from 'node:path';
import { monitorEventLoopDelay, performance, type EventLoopUtilization } from 'node:perf_hooks';
import pg from 'pg';
import { loadConfig } from '../src/config.js';
import { startServer } from '../src/server.js';

// With BENCH_STATEMENTS=1, the span's SQL statements too: how many of each, and their time.
const statements = new Map<string, { count: number; ms: number }>();
let counting = false;
if (process.env.BENCH_STATEMENTS) {
  const query = pg.Client.prototype.query as (...args: any[]) => any;
  pg.Client.prototype.query = function (this: pg.Client, ...args: any[]) {
    if (!counting) return query.apply(this, args);
    const config = args[0];
    const text = String(typeof config === 'string' ? config : config?.text ?? config?.name ?? '?').replace(/\s+/g, ' ').slice(0, 140);
    const at = performance.now();
    const done = () => {
      const entry = statements.get(text) ?? { count: 0, ms: 0 };
      entry.count++;
      entry.ms += performance.now() - at;
      statements.set(text, entry);
    };
    const callback = args.findIndex((a) => typeof a === 'function');
    if (callback >= 0) {
      const original = args[callback];
      args[callback] = (...results: unknown[]) => (done(), original(...results));
      return query.apply(this, args);
    }
    const result = query.apply(this, args);
    if (result && typeof result.then === 'function') result.then(done, done);
    return result;
  } as typeof pg.Client.prototype.query;
}

// BENCH_NODE_ON_DISK=1: the embedded database under DATA_DIR (a seeded one), not a fresh one in memory.
const server = await startServer(loadConfig(), { inMemory: process.env.BENCH_NODE_ON_DISK !== '1' });
process.stdout.write(`${JSON.stringify({ url: server.url })}\n`);

const profileDir = process.env.BENCH_PROFILE;
const session = profileDir ? new Session() : null;
const post = (method: string) =>
  new Promise<any>((resolve, reject) => session!.post(method, (error, result) => (error ? reject(error) : resolve(result))));
if (session) {
  session.connect();
  await post('Profiler.enable');
}

let span: { elu: EventLoopUtilization; delay: ReturnType<typeof monitorEventLoopDelay>; cpu: NodeJS.CpuUsage; at: number } | null = null;
process.on('SIGUSR2', () => {
  void (async () => {
    if (!span) {
      const delay = monitorEventLoopDelay({ resolution: 10 });
      delay.enable();
      span = { elu: performance.eventLoopUtilization(), delay, cpu: process.cpuUsage(), at: performance.now() };
      statements.clear();
      counting = true;
      if (session) await post('Profiler.start');
      return;
    }
    const { elu, delay, cpu, at } = span;
    span = null;
    counting = false;
    delay.disable();
    const used = process.cpuUsage(cpu);
    const seconds = (performance.now() - at) / 1000;
    let profile: string | undefined;
    if (session) {
      const result = await post('Profiler.stop');
      mkdirSync(profileDir!, { recursive: true });
      profile = path.join(profileDir!, `sockets-${process.pid}-${Date.now()}.cpuprofile`);
      writeFileSync(profile, JSON.stringify(result.profile));
    }
    process.stdout.write(
      `${JSON.stringify({
        span: {
          seconds: Number(seconds.toFixed(1)),
          eventLoopUtilization: Number(performance.eventLoopUtilization(elu).utilization.toFixed(2)),
          cpuPercent: Math.round(((used.user + used.system) / 1000 / (seconds * 1000)) * 100),
          delayMs: { p50: delay.percentile(50) / 1e6, p99: delay.percentile(99) / 1e6, max: delay.max / 1e6 },
          profile,
          statements: statements.size
            ? [...statements].sort((a, b) => b[1].ms - a[1].ms).slice(0, 25).map(([text, { count, ms }]) => ({ count, ms: Math.round(ms), text }))
            : undefined,
        },
      })}\n`,
    );
  })();
});
