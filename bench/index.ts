// `npm run bench [name...]`: runs bench/<name>.bench.ts (all of them without names) one after another.
// Production-mode benchmarks use DATABASE_URL and REDIS_URL when set, else the local defaults.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const dir = path.dirname(fileURLToPath(import.meta.url));
const wanted = process.argv.slice(2);
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => !wanted.length || wanted.includes(f.replace(/\.bench\.ts$/, '')))
  .sort();

for (const file of files) {
  console.log(`\n# ${file}`);
  const mod = (await import(pathToFileURL(path.join(dir, file)).href)) as { default: () => Promise<void> };
  await mod.default();
}
process.exit(0);
