// `npm run bench [name...]`: runs bench/<name>.bench.ts (all of them without names) one after another.
// Production-mode benchmarks use DATABASE_URL and REDIS_URL when set, else the local defaults.
import '../src/env-file.js';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const dir = path.dirname(fileURLToPath(import.meta.url));
const wanted = process.argv.slice(2);
const benches = readdirSync(dir)
  .filter((f) => f.endsWith('.bench.ts'))
  .map((f) => f.replace(/\.bench\.ts$/, ''))
  .sort();
const unknown = wanted.filter((name) => !benches.includes(name));
if (unknown.length) {
  console.error(`unknown bench${unknown.length > 1 ? 'es' : ''}: ${unknown.join(', ')}; the benches are: ${benches.join(', ')}`);
  process.exit(2);
}
const files = benches.filter((name) => !wanted.length || wanted.includes(name)).map((name) => `${name}.bench.ts`);

for (const file of files) {
  console.log(`\n# ${file}`);
  const mod = (await import(pathToFileURL(path.join(dir, file)).href)) as { default: () => Promise<void> };
  await mod.default();
}
process.exit(0);
