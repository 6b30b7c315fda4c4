// The Prisma client, generated when it is not up to date: before `npm start`, `npm run workers`,
// `npm test` and the other scripts, and by the test suite's global setup. It is generated again
// only when prisma/schema.prisma or the installed prisma changed since it was last generated here
// (or it is missing): generating takes seconds and rewrites src/generated/prisma in place, so a
// node or worker started next to a running one must not regenerate what that one is importing.
// Processes started at once (a unit's nodes and worker, the life-cycle tests) take a lock
// directory, so one generates and the others wait for it and then find the client up to date.
// `npm run generate` always generates.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const cache = path.join(root, 'node_modules/.cache/support-platform');
const stamp = path.join(cache, 'prisma-client.sha256');
const lock = path.join(cache, 'prisma-client.lock');
const generated = path.join(root, 'src/generated/prisma/client.ts');
// A lock older than this was left by a process that died while generating.
const staleLockMs = 120_000;

function digest() {
  const schema = readFileSync(path.join(root, 'prisma/schema.prisma'));
  const prisma = readFileSync(path.join(root, 'node_modules/prisma/package.json'));
  return createHash('sha256').update(schema).update(prisma).digest('hex');
}

function upToDate(expected: string) {
  return existsSync(generated) && existsSync(stamp) && readFileSync(stamp, 'utf8') === expected;
}

function takeLock() {
  mkdirSync(cache, { recursive: true });
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (;;) {
    try {
      mkdirSync(lock);
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      try {
        if (Date.now() - statSync(lock).mtimeMs > staleLockMs) rmSync(lock, { recursive: true, force: true });
      } catch {
        // Removed by its holder meanwhile: try again.
      }
      Atomics.wait(pause, 0, 0, 100);
    }
  }
}

export function generateClientIfStale() {
  const expected = digest();
  if (upToDate(expected)) return false;
  takeLock();
  try {
    // Another process may have generated it while this one waited for the lock.
    if (upToDate(expected)) return false;
    execFileSync('npm', ['run', '-s', 'generate'], { cwd: root, stdio: 'inherit' });
    writeFileSync(stamp, expected);
    return true;
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) generateClientIfStale();
