import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import type { Config } from '../../src/config.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** A TypeScript entry point of this repository run in its own process, for tests that kill it. */
export interface ScriptProcess {
  child: ChildProcess;
  /** What it wrote so far, stdout and stderr together. */
  output(): string;
  /** The JSON objects among its output lines. */
  lines(): Array<Record<string, unknown>>;
  /** Waits until `ready` answers a value, failing with the output if the process exits first. */
  until<T>(ready: () => T | undefined | null | false, timeoutMs?: number): Promise<T>;
  /** SIGKILLs it unless it has ended, and waits for its exit. */
  kill(): Promise<void>;
}

/** Runs `script` (a path from the repository root) with `node --import tsx` and exactly `env`. */
export function runScript(script: string, env: NodeJS.ProcessEnv): ScriptProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', script], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const lines = () =>
    output.split('\n').flatMap((line) => {
      try {
        const value = JSON.parse(line);
        return value && typeof value === 'object' ? [value as Record<string, unknown>] : [];
      } catch {
        return [];
      }
    });
  return {
    child,
    output: () => output,
    lines,
    async until(ready, timeoutMs = 60_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        if (child.exitCode !== null || child.signalCode !== null) throw new Error(`${script} exited: ${output}`);
        const value = ready();
        if (value) return value;
        if (Date.now() > deadline) throw new Error(`${script} not ready in ${timeoutMs} ms: ${output}`);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    },
    async kill() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGKILL');
      await once(child, 'exit');
    },
  };
}

/**
 * The environment of a server node in its own process on `config`'s database and Redis (its data
 * directory, secret and key prefix), listening on a free port of 127.0.0.1.
 */
export function nodeProcessEnv(config: Config, extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries({
    ...process.env,
    NODE_ENV: 'test',
    LOG_LEVEL: 'warn',
    DATA_DIR: config.dataDir,
    JWT_SECRET: config.jwtSecret,
    DATABASE_URL: config.databaseUrl,
    REDIS_URL: config.redisUrl,
    REDIS_PREFIX: config.redisPrefix,
    PORT: '0',
    HOST: '127.0.0.1',
    BCRYPT_ROUNDS: '4',
    ...extra,
  })) {
    if (value !== undefined) env[key] = value;
  }
  if (!config.databaseUrl) delete env.DATABASE_URL;
  if (!config.redisUrl) delete env.REDIS_URL;
  return env;
}
