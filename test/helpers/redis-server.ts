import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';

// A redis-server of a test file's own, for tests that kill, freeze or cut Redis without
// disturbing the machine's Redis (6379) or other test files.

/** A redis-server on `port`; resolves once it accepts connections, rejects if it cannot start. */
export function startRedis(port: number): Promise<ChildProcess> {
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--daemonize', 'no', '--enable-debug-command', 'local'], {
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  const lines = createInterface({ input: child.stdout! });
  return new Promise((resolve, reject) => {
    lines.on('line', (line) => {
      if (line.includes('Ready to accept connections')) resolve(child);
    });
    child.once('exit', (code) => reject(new Error(`redis-server on ${port} exited with ${code}`)));
  });
}

/**
 * A redis-server on the first free port of `ports` (another run may hold some). Should teardown not
 * finish (a hook timing out), the server still goes with this process.
 */
export async function startRedisOnFreePort(ports: readonly number[]): Promise<{ redis: ChildProcess; port: number }> {
  for (const port of ports) {
    const redis = await startRedis(port).catch(() => undefined);
    if (redis) {
      process.once('exit', () => redis.kill('SIGKILL'));
      return { redis, port };
    }
  }
  throw new Error(`no free port among ${ports.join(', ')}`);
}

export const running = (child: ChildProcess) => child.exitCode === null && child.signalCode === null;
