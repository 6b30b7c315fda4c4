import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.js';
import { serviceDataDir } from './helpers/data-dir.js';
import { createTestDatabase, productionMode, redisUrl } from './helpers/environment.js';

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

async function waitFor(check: () => boolean, timeoutMs = 90_000) {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
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

// At once: each mostly waits for its own process.
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

  it('serves, logs one line per request without secrets, and drains on SIGTERM', async () => {
    const dataDir = await serviceDataDir('sp-proc-');
    const database = productionMode ? await createTestDatabase() : undefined;
    const proc = startProcess({
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: database?.url,
      REDIS_URL: productionMode ? redisUrl : undefined,
      REDIS_PREFIX: `sp_proc_${process.pid}`,
      BCRYPT_ROUNDS: '4',
    });
    try {
      await waitFor(() => /server listening/.test(proc.output()));
      const url = JSON.parse(proc.output().split('\n').find((l) => l.includes('server listening'))!).url as string;
      expect((await fetch(`${url}/health`)).status).toBe(200);
      expect((await fetch(`${url}/ready`)).status).toBe(200);
      const password = 'very secret password';
      await fetch(`${url}/v3/auth/signup`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'log@example.test', password }) });
      const signin = await (await fetch(`${url}/v3/auth/signin`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'log@example.test', password }) })).json();
      await fetch(`${url}/v3/projects?token=abc`, { headers: { authorization: signin.token } });
      await waitFor(() => proc.output().includes('"path":"/v3/projects"'));
      const line = JSON.parse(proc.output().split('\n').find((l) => l.includes('"path":"/v3/projects"'))!);
      expect(line).toMatchObject({ method: 'GET', path: '/v3/projects', status: 200 });
      expect(typeof line.ms).toBe('number');
      expect(proc.output()).not.toContain(password);
      expect(proc.output()).not.toContain(signin.token.slice(4));
      proc.child.kill('SIGTERM');
      expect(await proc.exited).toBe(0);
    } finally {
      proc.child.kill('SIGKILL');
      await database?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});
