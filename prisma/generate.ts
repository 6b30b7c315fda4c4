// The Prisma client, generated when it is not up to date: before `npm start` and `npm test`, and
// by the test suite's global setup. It is generated again only when prisma/schema.prisma or the
// installed prisma changed since it was last generated here (or it is missing): generating takes
// seconds, and servers started at once (the life-cycle tests) would otherwise rewrite the same
// files at once. `npm run generate` always generates.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export function generateClientIfStale() {
  const schema = readFileSync(path.join(root, 'prisma/schema.prisma'));
  const prisma = readFileSync(path.join(root, 'node_modules/prisma/package.json'));
  const digest = createHash('sha256').update(schema).update(prisma).digest('hex');
  const stamp = path.join(root, 'node_modules/.cache/support-platform/prisma-client.sha256');
  const generated = path.join(root, 'src/generated/prisma/client.ts');
  if (existsSync(generated) && existsSync(stamp) && readFileSync(stamp, 'utf8') === digest) return false;
  execFileSync('npm', ['run', '-s', 'generate'], { cwd: root, stdio: 'inherit' });
  mkdirSync(path.dirname(stamp), { recursive: true });
  writeFileSync(stamp, digest);
  return true;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) generateClientIfStale();
