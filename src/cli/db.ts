// Database commands: `migrate` applies prisma/migrations; `diff <name>` writes a new
// migration with the SQL that takes the migrations folder to prisma/schema.prisma.
import '../env-file.js';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite/vector';
import { PrismaPGlite } from 'pglite-prisma-adapter';
import { loadConfig } from '../config.js';
import { DatabaseHeldError, openDatabase } from '../infra/database.js';
import { createLogger } from '../infra/logger.js';
import { migrationsDir, pendingSchemaDiff } from '../infra/migrate.js';

const [command, name] = process.argv.slice(2);

if (command === 'migrate') {
  const config = loadConfig();
  const logger = createLogger(config.logLevel);
  let db;
  try {
    db = await openDatabase({ databaseUrl: config.databaseUrl, poolSize: config.databasePoolSize, pgliteDir: path.join(config.dataDir, 'db'), logger });
  } catch (error) {
    if (!(error instanceof DatabaseHeldError)) throw error;
    console.error(`cannot migrate: ${error.message}`);
    process.exit(1);
  }
  await db.close();
  logger.info('database is up to date');
} else if (command === 'diff') {
  const pglite = await PGlite.create({ extensions: { vector } });
  const sql = await pendingSchemaDiff(new PrismaPGlite(pglite));
  await pglite.close();
  if (!sql.trim() || /^-- This is an empty migration/.test(sql.trim())) {
    console.log('schema.prisma matches the migrations: nothing to write');
    process.exit(0);
  }
  if (!name) {
    console.log(sql);
    process.exit(process.argv.includes('--check') ? 1 : 0);
  }
  const stamp = new Date().toISOString().replace(/\D/g, '').slice(0, 14);
  const dir = path.join(migrationsDir, `${stamp}_${name}`);
  await mkdir(dir, { recursive: true });
  await writeFile(path.join(dir, 'migration.sql'), sql);
  console.log(`wrote ${path.relative(process.cwd(), dir)}/migration.sql`);
} else {
  console.error('usage: db migrate | db diff [name]');
  process.exit(2);
}
