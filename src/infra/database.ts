import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite/vector';
import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import type { SqlMigrationAwareDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import { PrismaPGlite } from 'pglite-prisma-adapter';
import { PrismaClient, type Prisma } from '../generated/prisma/client.js';
import type { Logger } from './logger.js';
import { applyMigrations } from './migrate.js';
import { isDatabaseUnavailable } from './database-unavailable.js';
import { AdmittingPool } from './connection-admission.js';
import { inRequestTransaction, routedDb } from './request-transaction.js';
import { withRevisions, type Db, type Tx } from './client.js';

export type { Db, Tx };

/**
 * A raw statement whose text starts with this comment is prepared once per PostgreSQL connection
 * (no parsing on each call). Run through `queryRows`, it is also planned once: one plan for any
 * values (a generic plan, see `plannedOnceOptions`), so its conditions must be ones an index
 * serves whatever the values are. For the hot statements, whose text is one of a bounded set
 * (values always as parameters): a connection that has prepared more than
 * `maxPreparedPerConnection` of them is closed, and its statements with it.
 */
export const prepared = '/* prepared */';

/** Names of the prepared statements' texts, kept for the most recent ones only. */
const statementNames = new Map<string, string>();
const maxKeptNames = 1000;

/** The name a `prepared` statement is cached under; none (a one-off statement) for the others. */
function statementName(query: { sql: string }): string {
  if (!query.sql.startsWith(prepared)) return undefined as unknown as string;
  let name = statementNames.get(query.sql);
  if (!name) {
    name = `p_${createHash('sha1').update(query.sql).digest('hex').slice(0, 20)}`;
    if (statementNames.size >= maxKeptNames) statementNames.clear();
    statementNames.set(query.sql, name);
  }
  return name;
}


/** The driver's pools behind a client, on PostgreSQL (the embedded database has none). */
const pools = new WeakMap<object, { pool: pg.Pool; plannedOnce: pg.Pool }>();

/** Whether statements sent at once on `db` run at once (PostgreSQL's pool), not one after another (the embedded database). */
export const runsConcurrently = (db: object) => pools.has(db);

/**
 * Connections that keep one plan per prepared statement (`plan_cache_mode`): PostgreSQL would
 * otherwise plan a statement again on each call whenever its estimate for the values at hand is
 * below the one for any values (as for any LIMIT smaller than a tenth of the table), and planning
 * the lead list statement cost more than running it (1.1 of 1.4 ms of database CPU, measured).
 * Their own pool, so that the ORM's statements, and one-off ones, keep plans made for their values.
 */
const plannedOnceOptions = '-c plan_cache_mode=force_generic_plan';

/**
 * Distinct statements a planned-once connection prepares before it is closed: each holds its
 * parse tree and plan in the backend's memory for the connection's life, and a segment's lead
 * list has a text of its own (its filters' shape).
 */
const maxPreparedPerConnection = 200;

/**
 * Connections of each pool, until they end. `pool.end()` resolves once it has asked its idle
 * connections to end, before their sockets close: a database dropped or a server stopped in that
 * moment terminates them, and their error would come after everything was closed.
 */
const openConnections = new WeakMap<pg.Pool, Set<pg.Client>>();

function trackConnections(pool: pg.Pool, logger: Logger) {
  const open = new Set<pg.Client>();
  openConnections.set(pool, open);
  // A connection PostgreSQL ends (a restart, a failover, pg_terminate_backend, idle_session_timeout,
  // a proxy's reset) emits 'error': on the pool while it is idle, on the connection while it is
  // out. Without a listener either is an unhandled 'error' event, which ends the process. The pool
  // drops an idle connection that failed; one that is out fails its statement, which the request
  // answers 503 (see `isDatabaseUnavailable`), and is released as broken.
  pool.on('error', (error) => logger.warn({ err: error }, 'an idle database connection ended; the pool opens another when needed'));
  pool.on('connect', (client) => {
    open.add(client);
    client.on('error', (error) => logger.debug({ err: error }, 'a database connection failed while in use'));
    client.once('end', () => open.delete(client));
  });
  return pool;
}

/** Ends a pool and waits until each of its connections has closed. */
async function endPool(pool: pg.Pool) {
  const open = [...(openConnections.get(pool) ?? [])];
  const closed = open.map((client) => new Promise<void>((resolve) => client.once('end', () => resolve())));
  await pool.end();
  await Promise.all(closed);
}

/** The statement names each planned-once connection has prepared. */
const preparedOn = new WeakMap<pg.PoolClient, Set<string>>();

async function queryPrepared(pool: pg.Pool, name: string, text: string, values: unknown[]) {
  const client = await pool.connect();
  let names = preparedOn.get(client);
  if (!names) preparedOn.set(client, (names = new Set()));
  names.add(name);
  // As the pool's own query does: an error of the connection while it is out is this call's, and
  // a connection that failed a statement is not reused.
  let failure: Error | undefined;
  const onError = (error: Error) => (failure ??= error);
  client.once('error', onError);
  try {
    // With a callback, as the pool's own query calls it: awaiting the promise form here kept each
    // call's rows alive through minor collections (about 80 KB a list promoted, 30 ms scavenges).
    return await new Promise<pg.QueryResult>((resolve, reject) =>
      client.query({ name, text, values }, (error: Error | null, result: pg.QueryResult) => (error ? reject(error) : resolve(result))),
    );
  } catch (error) {
    failure ??= error as Error;
    throw error;
  } finally {
    client.removeListener('error', onError);
    client.release(failure ?? names.size > maxPreparedPerConnection);
  }
}

/** Values as PostgreSQL reads them: timestamps are UTC (the columns hold UTC without a zone). */
const driverValue = (value: unknown) =>
  value instanceof Date ? value.toISOString() : typeof value === 'bigint' ? value.toString() : value;

/**
 * Runs one statement (a read, or a write complete in itself) straight on the PostgreSQL driver,
 * skipping the ORM's raw-query path, which costs about 0.3 ms of CPU a call; on the embedded
 * database, through Prisma. For the hot statements only, and only those whose columns are text,
 * int, boolean or JSON: the two paths convert other types (bigint, timestamps) differently. A
 * statement starting with `prepared` is prepared and planned once per connection (see `prepared`).
 */
/**
 * A row a statement answered as JSON text (`row_to_json(row)::text`: one value parses in one go, and
 * the statement's result keeps its shape when a migration adds a column), with its timestamps
 * (`timestamp(3)`, which `row_to_json` writes without a zone: UTC by convention) as Dates again.
 */
export function fromJsonRow<T>(text: string, dateFields: readonly string[]): T {
  const row = JSON.parse(text) as Record<string, unknown>;
  return withJsonDates<T>(row, dateFields);
}

/** The fields of a model that hold timestamps (to list them for `fromJsonRow`; `allDates` checks the list). */
export type DateFields<T> = { [K in keyof T]-?: NonNullable<T[K]> extends Date ? K : never }[keyof T];

/** `fields`, checked by the compiler to name every timestamp of model `T`. */
export const allDates = <T>() => <const L extends readonly DateFields<T>[]>(fields: L & ([Exclude<DateFields<T>, L[number]>] extends [never] ? unknown : never)) => fields;

/** A `timestamp(3)` as `row_to_json` writes it ("2024-05-01T10:00:00.123", UTC by convention). */
export const fromJsonTimestamp = (text: string) => new Date(`${text}Z`);

/** The same, for a row parsed already (in place). */
export function withJsonDates<T>(row: object, dateFields: readonly string[]): T {
  const record = row as Record<string, unknown>;
  for (const field of dateFields) if (typeof record[field] === 'string') record[field] = fromJsonTimestamp(record[field] as string);
  return row as T;
}

export async function queryRows<T>(db: Db, statement: Prisma.Sql): Promise<T[]> {
  const driver = pools.get(db);
  // Inside a request's transaction (see request-transaction.ts), through it.
  if (!driver || inRequestTransaction()) return db.$queryRaw<T[]>(statement);
  const name = statementName({ sql: statement.text });
  const values = statement.values.map(driverValue);
  const { rows } = name
    ? await queryPrepared(driver.plannedOnce, name, statement.text, values)
    : await driver.pool.query({ text: statement.text, values });
  return rows as T[];
}

export interface Database {
  kind: 'pglite' | 'postgres';
  prisma: Db;
  /** True when the pgvector extension could be enabled. */
  hasVector: boolean;
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  databaseUrl?: string;
  /**
   * Connections of the general pool on PostgreSQL (`DATABASE_POOL_SIZE`); the planned-once pool,
   * for the hot list statements only, has half as many (at least 2).
   */
  poolSize: number;
  /** Longest a statement waits for a connection (see Config.databaseConnectTimeoutMs); none when unset. */
  connectTimeoutMs?: number;
  /** Directory for the embedded database; `memory://` keeps it in memory. */
  pgliteDir: string;
  logger: Logger;
}

/**
 * An image (a tarball from `dumpDataDir`) of an embedded database with every migration applied,
 * for whoever opens many databases of one schema: the test suite migrates once and each app loads
 * the image instead of running initdb and the migrations (a second instead of several). A new
 * database only: one already on disk is opened as it is. Migrations still run after loading, so an
 * image older than prisma/migrations is brought up to date rather than trusted.
 */
let embeddedImage: Blob | undefined;

/**
 * In-memory embedded databases closed and kept to be opened again, emptied, when `recycle` is on:
 * starting the engine and loading an image cost about 600 ms of CPU an open, emptying every table
 * a few tens. For a process that opens many short-lived in-memory databases of one schema (the
 * test suite); a server opens one and never closes it early.
 */
let spareInMemory: PGlite[] | undefined;

export function startEmbeddedDatabasesFrom(image: Blob | undefined, options: { recycle?: boolean } = {}) {
  embeddedImage = image;
  if (!options.recycle) for (const spare of spareInMemory?.splice(0) ?? []) void spare.close();
  spareInMemory = options.recycle ? (spareInMemory ?? []) : undefined;
}

/**
 * The tables of a migrated in-memory database, the same for all of them (one image, one set of
 * migrations): what a spare goes back to.
 */
let migratedTables: string[] | undefined;

/**
 * Drops the tables the app made (the knowledge base's vector table, whose column depends on the
 * encoder), empties every other table but the migrations' own and restarts every sequence: what
 * a database loaded from the image holds. Run when a spare is taken rather than when it is put
 * back, so what a closed app still wrote after closing is wiped too.
 */
function backToMigrated(tables: string[]) {
  const kept = tables.map((name) => `'${name.replaceAll("'", "''")}'`).join(', ');
  return `DO $$
DECLARE
  made text;
  emptied text;
  seq record;
BEGIN
  SELECT string_agg(format('%I.%I', schemaname, tablename), ', ') INTO made
    FROM pg_tables WHERE schemaname = 'public' AND tablename <> ALL (ARRAY[${kept}]::text[]);
  IF made IS NOT NULL THEN
    EXECUTE 'DROP TABLE ' || made || ' CASCADE';
  END IF;
  SELECT string_agg(format('%I.%I', schemaname, tablename), ', ') INTO emptied
    FROM pg_tables WHERE schemaname = 'public' AND tablename <> '_prisma_migrations';
  IF emptied IS NOT NULL THEN
    EXECUTE 'TRUNCATE ' || emptied || ' RESTART IDENTITY CASCADE';
  END IF;
  FOR seq IN SELECT schemaname, sequencename, start_value FROM pg_sequences WHERE schemaname = 'public' LOOP
    PERFORM setval(format('%I.%I', seq.schemaname, seq.sequencename), seq.start_value, false);
  END LOOP;
END $$`;
}

/** A spare in-memory database, as migrated, or undefined when there is none (or it cannot be reset). */
async function takeSpareInMemory(spares: PGlite[]): Promise<PGlite | undefined> {
  const spare = spares.pop();
  if (!spare || !migratedTables) return undefined;
  try {
    await spare.exec(backToMigrated(migratedTables));
    return spare;
  } catch {
    await spare.close().catch(() => {});
    return undefined;
  }
}

/**
 * The embedded engine's WebAssembly, compiled once per process, and its file bundle, read once:
 * a process that opens many embedded databases (the test suite) compiles 9 MB of WebAssembly
 * once instead of at every open, a third of what an open costs.
 */
let embeddedEngine: Promise<{ pgliteWasmModule: WebAssembly.Module; fsBundle: Blob }> | undefined;

function embeddedEngineAssets() {
  embeddedEngine ??= (async () => {
    const dist = path.dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite'));
    const [wasm, bundle] = await Promise.all([readFile(path.join(dist, 'pglite.wasm')), readFile(path.join(dist, 'pglite.data'))]);
    return { pgliteWasmModule: await WebAssembly.compile(wasm), fsBundle: new Blob([bundle]) };
  })();
  return embeddedEngine;
}

async function untilDatabaseAnswers<T>(work: () => Promise<T>, forMs: number, logger: Logger): Promise<T> {
  const deadline = Date.now() + forMs;
  for (;;) {
    try {
      return await work();
    } catch (error) {
      if (Date.now() >= deadline || !isDatabaseUnavailable(error)) throw error;
      logger.warn({ err: (error as Error).message }, 'the database does not answer yet; trying again in 1 s');
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  }
}

/** Prisma's wait for a transaction's connection: a backstop only, past any wait of a busy node. */
const beganTransactionMaxWaitMs = 10 * 60_000;

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  let adapter: SqlMigrationAwareDriverAdapterFactory;
  let pool: pg.Pool | undefined;
  let plannedOnce: pg.Pool | undefined;
  let closeDriver: () => Promise<void> = async () => {};
  let kind: Database['kind'];
  /** Set when the database goes back to the spares on close rather than closing. */
  let spares: PGlite[] | undefined;
  if (options.databaseUrl) {
    kind = 'postgres';
    // Each refuses a request not yet begun that waited DATABASE_CONNECT_TIMEOUT_MS for a connection,
    // and finishes one that has begun (connection-admission.ts).
    const limits = { connectionTimeoutMillis: options.connectTimeoutMs, admissionTimeoutMs: options.connectTimeoutMs };
    // A quarter of each pool (one at least) is kept for requests that write (connection-admission.ts).
    const reservedForWrites = (max: number) => Math.max(1, Math.round(max / 4));
    pool = trackConnections(new AdmittingPool({ connectionString: options.databaseUrl, max: options.poolSize, reservedForWrites: reservedForWrites(options.poolSize), ...limits }), options.logger);
    const plannedOnceSize = Math.max(3, Math.ceil(options.poolSize / 2));
    plannedOnce = trackConnections(
      new AdmittingPool({
        connectionString: options.databaseUrl,
        max: plannedOnceSize,
        reservedForWrites: reservedForWrites(plannedOnceSize),
        options: plannedOnceOptions,
        ...limits,
      }),
      options.logger,
    );
    adapter = new PrismaPg(pool, { statementNameGenerator: statementName });
  } else {
    kind = 'pglite';
    const dir = options.pgliteDir;
    if (dir !== 'memory://') mkdirSync(path.dirname(path.resolve(dir)), { recursive: true });
    const inMemory = dir === 'memory://';
    const isNew = inMemory || !existsSync(path.join(dir, 'PG_VERSION'));
    const release = inMemory ? () => {} : holdEmbeddedDirectory(dir);
    spares = inMemory ? spareInMemory : undefined;
    const pglite =
      (spares && (await takeSpareInMemory(spares))) ||
      (await PGlite.create({
        dataDir: inMemory ? undefined : dir,
        extensions: { vector },
        loadDataDir: isNew ? embeddedImage : undefined,
        ...(await embeddedEngineAssets()),
      }));
    adapter = new PrismaPGlite(pglite);
    closeDriver = async () => {
      // Kept only while recycling is still on (startEmbeddedDatabasesFrom may have turned it off).
      if (spares && spares === spareInMemory) spares.push(pglite);
      else await pglite.close();
      release();
    };
  }

  // A node starting while PostgreSQL restarts or hangs (a failover, a cluster coming up together)
  // waits for it, up to a minute, rather than exiting: what its supervisor would otherwise do.
  const applied = await untilDatabaseAnswers(() => applyMigrations(adapter), kind === 'postgres' ? 60_000 : 0, options.logger);
  if (applied.length) options.logger.info({ migrations: applied }, 'applied database migrations');

  // A transaction waits for a connection as a statement does: the pool refuses a request not yet
  // begun after DATABASE_CONNECT_TIMEOUT_MS, and a begun one waits its turn (connection-admission.ts),
  // which Prisma's own limit (2 s by default) must not cut short: a request's second write, after
  // its first committed, refused for a busy pool would be answered 503 half done.
  const client = new PrismaClient({ adapter, transactionOptions: { maxWait: beganTransactionMaxWaitMs } });
  // Statements made inside a request that runs in one transaction go to it (request-transaction.ts).
  const prisma = routedDb(withRevisions(client));
  if (spares && !migratedTables) {
    const tables = await prisma.$queryRaw<Array<{ tablename: string }>>`SELECT tablename FROM pg_tables WHERE schemaname = 'public'`;
    migratedTables = tables.map((table) => table.tablename);
  }
  if (pool && plannedOnce) pools.set(prisma, { pool, plannedOnce });
  const hasVector = await enableVector(prisma, options.logger);
  let closing: Promise<void> | undefined;

  return {
    kind,
    prisma,
    hasVector,
    async ping() {
      if (closing) return false;
      try {
        await prisma.$queryRaw`SELECT 1`;
        return true;
      } catch {
        return false;
      }
    },
    close() {
      closing ??= (async () => {
        await client.$disconnect();
        await Promise.all([pool && endPool(pool), plannedOnce && endPool(plannedOnce)]);
        await closeDriver();
      })();
      return closing;
    },
  };
}

/** Another process holds the embedded database directory (a running server, workers, db:migrate). */
export class DatabaseHeldError extends Error {}

/**
 * One process at a time opens an embedded database directory: PGlite has no server to share it,
 * and a second opener (a `db:migrate` while the server runs, a second `npm start`) would work on a
 * copy that the first overwrites. `<dir>.pid` names the holder; a pid that no longer runs is stale.
 */
function holdEmbeddedDirectory(dir: string): () => void {
  const lock = `${path.resolve(dir)}.pid`;
  let holder = NaN;
  try {
    holder = Number(readFileSync(lock, 'utf8').trim());
  } catch {
    // No holder.
  }
  if (Number.isInteger(holder) && holder > 0 && holder !== process.pid && processRuns(holder)) {
    throw new DatabaseHeldError(`the embedded database ${dir} is held by process ${holder} (a running server?): stop it first, or use DATABASE_URL to share a PostgreSQL database`);
  }
  writeFileSync(lock, String(process.pid));
  return () => {
    try {
      if (Number(readFileSync(lock, 'utf8').trim()) === process.pid) rmSync(lock, { force: true });
    } catch {
      // Already gone.
    }
  };
}

function processRuns(pid: number) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** pgvector is optional: without it retrieval stays lexical. Logged once, at start. */
async function enableVector(prisma: Db, logger: Logger): Promise<boolean> {
  try {
    await prisma.$executeRawUnsafe('CREATE EXTENSION IF NOT EXISTS vector');
    return true;
  } catch (error) {
    logger.debug({ err: error }, 'CREATE EXTENSION vector failed');
    logger.warn('pgvector is not available on this database: knowledge-base retrieval will be lexical only');
    return false;
  }
}
