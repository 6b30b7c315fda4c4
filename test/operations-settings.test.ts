import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { configurationDocPath, envExamplePath, renderEnvExample, withVariableTable } from '../src/cli/env-example.js';
import { environmentVariables, loadConfig } from '../src/config.js';
import { openDatabase } from '../src/infra/database.js';
import { createLogger } from '../src/infra/logger.js';
import { createTestDatabase, productionMode, redisUrl, uniqueName } from './helpers/environment.js';

// What an operator sees when settings disagree, and the files that tell them what exists.

const root = fileURLToPath(new URL('..', import.meta.url));

/** The environment of this run without any of the settings under test. */
function cleanEnv(extra: Record<string, string>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value !== undefined && !/^(DATABASE_URL|REDIS_URL|REDIS_PREFIX|DATA_DIR|NODE_ENV|RUN_WORKERS|ENV_FILE|PORT)$/.test(key)) env[key] = value;
  }
  return { ...env, LOG_LEVEL: 'info', ...extra };
}

/** Runs a command in the repository to its end: its exit code and everything it wrote. */
async function run(command: string, args: string[], env: Record<string, string>, timeoutMs = 120_000) {
  const child = spawn(command, args, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  const [code] = (await once(child, 'exit')) as [number | null];
  clearTimeout(timer);
  return { code, output };
}
const tsx = (script: string, ...args: string[]) => [process.execPath, ['--import', 'tsx', script, ...args]] as const;
const tempDir = () => mkdtempSync(path.join(tmpdir(), 'sp-ops-'));

describe('settings that disagree', () => {
  it('refuse RUN_WORKERS=false without REDIS_URL, naming RUN_WORKERS', () => {
    expect(() => loadConfig({ RUN_WORKERS: 'false' })).toThrow(/RUN_WORKERS: false needs REDIS_URL/);
  });

  it('keep workers given REDIS_URL but no DATABASE_URL from starting, naming DATABASE_URL', async () => {
    const [command, args] = tsx('workers/index.ts');
    const result = await run(command, [...args], cleanEnv({ REDIS_URL: 'redis://127.0.0.1:1', DATA_DIR: tempDir() }));
    expect(result.code).toBe(1);
    expect(result.output).toMatch(/cannot start workers: REDIS_URL is set but DATABASE_URL is not/);
  });

  it('keep workers without REDIS_URL from starting, naming REDIS_URL', async () => {
    const [command, args] = tsx('workers/index.ts');
    const result = await run(command, [...args], cleanEnv({ DATA_DIR: tempDir() }));
    expect(result.code).toBe(1);
    expect(result.output).toMatch(/cannot start workers: REDIS_URL is not set/);
  });
});

describe('npm run bench with a name that is not a bench', () => {
  it('fails and lists the benches', async () => {
    const [command, args] = tsx('bench/index.ts', 'mesages');
    const result = await run(command, [...args], cleanEnv({}));
    expect(result.code).toBe(2);
    expect(result.output).toMatch(/unknown bench: mesages; the benches are: .*\bmessages\b/);
    expect(result.output).not.toMatch(/^# /m);
  });
});

describe('embedded db:migrate', () => {
  it('refuses while another process holds the database, and migrates once it is let go', async () => {
    const dataDir = tempDir();
    const held = await openDatabase({ pgliteDir: path.join(dataDir, 'db'), poolSize: 1, logger: createLogger('silent') });
    const [command, args] = tsx('src/cli/db.ts', 'migrate');
    try {
      const refused = await run(command, [...args], cleanEnv({ DATA_DIR: dataDir }));
      expect(refused.code).toBe(1);
      expect(refused.output).toContain(`cannot migrate: the embedded database ${path.join(dataDir, 'db')} is held by process ${process.pid}`);
      expect(refused.output).not.toContain('database is up to date');
    } finally {
      await held.close();
    }
    const migrated = await run(command, [...args], cleanEnv({ DATA_DIR: dataDir }));
    expect(migrated.output).toContain('database is up to date');
    expect(migrated.code).toBe(0);
  }, 180_000);
});

describe('.env', () => {
  it('is read by the entry points: a bad value in it stops the start naming the variable', async () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, '.env'), 'RUN_WORKERS=false\n');
    const [command, args] = tsx('src/main.ts');
    const result = await run(command, [...args], cleanEnv({ ENV_FILE: path.join(dir, '.env'), DATA_DIR: dir }));
    expect(result.code).toBe(1);
    expect(result.output).toContain('cannot start: invalid environment variable RUN_WORKERS');
  });

  it('gives way to the environment', async () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, '.env'), 'RUN_WORKERS=false\n');
    const [command, args] = tsx('bench/index.ts', 'no-such-bench');
    // bench reads .env too; with RUN_WORKERS from the environment it gets as far as the bench name.
    const result = await run(command, [...args], cleanEnv({ ENV_FILE: path.join(dir, '.env'), RUN_WORKERS: 'true' }));
    expect(result.output).toMatch(/unknown bench: no-such-bench/);
  });

  it('named by ENV_FILE must exist', async () => {
    const [command, args] = tsx('src/main.ts');
    const result = await run(command, [...args], cleanEnv({ ENV_FILE: path.join(tempDir(), 'missing.env') }));
    expect(result.code).toBe(1);
    expect(result.output).toMatch(/ENV_FILE names .*missing\.env, which does not exist/);
  });
});

describe('.env.example and docs/configuration.md', () => {
  it('are what npm run env:example writes from src/config.ts', () => {
    expect(readFileSync(envExamplePath, 'utf8')).toBe(renderEnvExample());
    const document = readFileSync(configurationDocPath, 'utf8');
    expect(document).toBe(withVariableTable(document));
  });

  it('list every variable loadConfig reads, with its default', () => {
    const example = readFileSync(envExamplePath, 'utf8');
    for (const name of Object.keys(environmentVariables)) expect(example).toMatch(new RegExp(`^#${name}=`, 'm'));
    expect(example).toMatch(/# default: 3000\n#PORT=3000\n/);
  });
});

describe('install telemetry', () => {
  it('is off: scarf, brought by swagger-ui-dist, reports nothing from an install of this project', async () => {
    expect(JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).scarfSettings).toEqual({ enabled: false });
    const requests: string[] = [];
    const collector = http.createServer((req, res) => {
      requests.push(`${req.method} ${req.url}`);
      res.end();
    });
    await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve));
    const saved = { port: process.env.SCARF_LOCAL_PORT, cwd: process.env.INIT_CWD };
    try {
      process.env.SCARF_LOCAL_PORT = String((collector.address() as AddressInfo).port);
      process.env.INIT_CWD = root;
      // Its postinstall, as npm runs it, but pointed at a collector of ours rather than its service.
      // npm ls runs here without the 3 s limit scarf gives it (a loaded machine passes it, and
      // scarf then gives up for that reason alone, which would prove nothing).
      const scarf = createRequire(import.meta.url)(path.join(root, 'node_modules/@scarf/scarf/report.js'));
      const { stdout } = await promisify(execFile)('npm', ['ls', '@scarf/scarf', '--json', '--long'], { cwd: root, maxBuffer: 64 * 1024 * 1024 });
      const postinstall = (async () => {
        const info = await new Promise((resolve, reject) => scarf.processDependencyTreeOutput(resolve, reject)(null, stdout, ''));
        scarf.getDependencyInfo = async () => info;
        return scarf.reportPostInstall();
      })();
      await expect(postinstall).rejects.toThrow(/disabled|opted out/);
      expect(requests).toEqual([]);
    } finally {
      collector.close();
      for (const [key, value] of [['SCARF_LOCAL_PORT', saved.port], ['INIT_CWD', saved.cwd]] as const) {
        if (value === undefined) delete process.env[key];
        else process.env[key] = value;
      }
    }
  }, 60_000);
});

describe.skipIf(!productionMode)('npm run workers under a supervisor', () => {
  it('passes SIGTERM on to the worker, which drains and exits', async () => {
    const database = await createTestDatabase();
    const child = spawn('npm', ['run', 'workers'], {
      cwd: root,
      env: cleanEnv({ DATABASE_URL: database.url, REDIS_URL: redisUrl!, REDIS_PREFIX: uniqueName('sptest'), DATA_DIR: tempDir(), NODE_ENV: 'production', JWT_SECRET: 'x'.repeat(40) }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    try {
      const deadline = Date.now() + 120_000;
      while (!output.includes('workers started')) {
        if (child.exitCode !== null) throw new Error(`workers exited: ${output}`);
        if (Date.now() > deadline) throw new Error(`workers did not start: ${output}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      const [code] = (await exited) as [number | null];
      // The worker's own shutdown ran: it was told, not orphaned.
      const drained = Date.now() + 30_000;
      while (!output.includes('workers draining') && Date.now() < drained) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(output).toContain('"signal":"SIGTERM"');
      expect(output).toContain('workers draining');
      expect(code === 0 || code === null).toBe(true);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
      await database.drop();
    }
  }, 180_000);
});
