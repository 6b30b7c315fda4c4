import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.js';

const root = path.resolve(import.meta.dirname, '..');

function startProcess(env: Record<string, string | undefined>) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: root,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, exited, output: () => output };
}

describe('configuration', () => {
  it('names the variable that has a bad value', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(ConfigError);
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => loadConfig({ DATABASE_URL: 'mysql://x' })).toThrow(/DATABASE_URL/);
  });

  it('keeps twice the cores, at least 4, database connections unless DATABASE_POOL_SIZE says', () => {
    expect(loadConfig({ JWT_SECRET: 'x'.repeat(40) }).databasePoolSize).toBe(Math.max(4, 2 * availableParallelism()));
    expect(loadConfig({ JWT_SECRET: 'x'.repeat(40), DATABASE_POOL_SIZE: '12' }).databasePoolSize).toBe(12);
    expect(() => loadConfig({ DATABASE_POOL_SIZE: '0' })).toThrow(/DATABASE_POOL_SIZE/);
  });

  it('defaults to port 3000 and ./data', () => {
    const config = loadConfig({ JWT_SECRET: 'x'.repeat(40) });
    expect(config.port).toBe(3000);
    expect(config.dataDir).toBe(path.resolve('./data'));
    expect(config.filesDir).toBe(path.resolve('./data/files'));
  });

  it('keeps a generated signing secret under DATA_DIR across restarts', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'sp-secret-'));
    const first = loadConfig({ DATA_DIR: dir }).jwtSecret;
    expect(first.length).toBeGreaterThanOrEqual(32);
    expect(loadConfig({ DATA_DIR: dir }).jwtSecret).toBe(first);
    rmSync(dir, { recursive: true, force: true });
  });
});

// At once: each mostly waits for its own process. A process that starts, serves and stops is
// lifecycle.test.ts.
describe.concurrent('the server process', () => {
  it('refuses to start with a bad variable and says which', async () => {
    const proc = startProcess({ PORT: 'eighty' });
    expect(await proc.exited).toBe(1);
    expect(proc.output()).toMatch(/cannot start: invalid environment variable PORT/);
  });

  it('stops with a clear message when the database cannot be migrated', async () => {
    const proc = startProcess({ DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/no_such_database_sp', PORT: '0', DATA_DIR: mkdtempSync(path.join(tmpdir(), 'sp-bad-')) });
    expect(await proc.exited).toBe(1);
    expect(proc.output()).toMatch(/cannot start: database migration failed/);
  });
});
