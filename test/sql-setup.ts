import { writeFileSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { PrismaPGlite } from 'pglite-prisma-adapter';
import { afterAll, beforeAll } from 'vitest';
const g = globalThis as any;
beforeAll(async () => {
  if (g.__sqlStats) return;
  g.__sqlStats = new Map();
  const pg = await PGlite.create();
  const adapter: any = await new PrismaPGlite(pg).connect();
  let proto = Object.getPrototypeOf(adapter);
  while (proto && !Object.prototype.hasOwnProperty.call(proto, 'performIO')) proto = Object.getPrototypeOf(proto);
  const orig = proto.performIO;
  proto.performIO = async function (query: { sql: string }) {
    const t0 = performance.now();
    try { return await orig.call(this, query); } finally {
      const k = query.sql.replace(/\s+/g, ' ').replace(/\$\d+/g, '$').slice(0, 200);
      const s = g.__sqlStats.get(k) ?? { n: 0, ms: 0 };
      s.n++; s.ms += performance.now() - t0; g.__sqlStats.set(k, s);
    }
  };
  await pg.close();
});
afterAll(() => {
  writeFileSync(`/tmp/sqlstats/${process.pid}.json`, JSON.stringify([...g.__sqlStats.entries()]));
});
