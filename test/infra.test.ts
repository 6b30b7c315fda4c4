import type { CustomEventName } from '../src/events.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InProcessEventBus, RedisEventBus, type BusMessage, type EventBus } from '../src/infra/event-bus.js';
import { createLogger } from '../src/infra/logger.js';
import type { LoggedEvent } from '../src/infra/event-log.js';
import { projectEventStream } from '../src/realtime/event-stream.js';
import { openDatabase, prepared, queryRows } from '../src/infra/database.js';
import { Prisma } from '../src/generated/prisma/client.js';
import { createTestApp, type SeededProject, type TestApp } from './helpers/app.js';
import { redisUrl, uniqueName } from './helpers/environment.js';
import { eventually } from './helpers/conversations.js';

const logger = createLogger('silent');
const redis = redisUrl ?? 'redis://127.0.0.1:6379';

describe.each([
  ['in-process', () => [new InProcessEventBus()] as EventBus[]],
  [
    'Redis',
    () => {
      const prefix = uniqueName('bus');
      return [new RedisEventBus(redis, prefix, logger), new RedisEventBus(redis, prefix, logger)];
    },
  ],
])('%s event bus', (_name, make) => {
  it('delivers a published message to every subscriber of the channel, across instances', async () => {
    const buses = make();
    const [a, b = a] = buses;
    const seenA: BusMessage[] = [];
    const seenB: BusMessage[] = [];
    a.subscribe('project:1', (m) => seenA.push(m));
    b.subscribe('project:1', (m) => seenB.push(m));
    b.subscribe('project:2', () => seenB.push({ wrong: true }));
    await eventually(async () => {
      await b.publish('project:1', { seq: 1 });
      return seenA.length > 0 && seenB.length > 0;
    });
    expect(seenA[0]).toEqual({ seq: 1 });
    expect(seenB.every((m) => !('wrong' in m))).toBe(true);
    await Promise.all(buses.map((bus) => bus.close()));
  });

  it('stops delivering after unsubscribe', async () => {
    const buses = make();
    const [a, b = a] = buses;
    const seen: BusMessage[] = [];
    const off = a.subscribe('c', (m) => seen.push(m));
    const probe: BusMessage[] = [];
    a.subscribe('c', (m) => probe.push(m));
    off();
    await eventually(async () => {
      await b.publish('c', { n: 1 });
      return probe.length > 0;
    });
    expect(seen).toEqual([]);
    await Promise.all(buses.map((bus) => bus.close()));
  });
});

describe('Redis event bus after a lost pub/sub connection', () => {
  it('signals a gap so readers catch up from the log', async () => {
    const prefix = uniqueName('gap');
    const bus = new RedisEventBus(redis, prefix, logger);
    await bus.ready();
    let gaps = 0;
    bus.onGap(() => gaps++);
    bus.subscribe('x', () => {});
    const { Redis } = await import('ioredis');
    const admin = new Redis(redis);
    await eventually(async () => (await admin.pubsub('CHANNELS', `${prefix}:*`)).length > 0);
    await admin.call('CLIENT', 'KILL', 'TYPE', 'pubsub');
    await eventually(() => gaps > 0);
    await admin.quit();
    await bus.close();
  });
});

describe('event log', () => {
  let t: TestApp;
  let p: SeededProject;
  beforeAll(async () => {
    t = await createTestApp();
    p = await t.seedProject();
  });
  afterAll(() => t.close());

  it('hands out sequence numbers without gaps under concurrent writers', async () => {
    const start = (await t.infra.eventLog.readAfter(p.projectId, 0, 10_000)).at(-1)!.seq;
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        t.infra.eventLog.transaction((_tx, emit) => emit({ projectId: p.projectId, name: 'event.emit.test', subject: String(i) })),
      ),
    );
    const events = await t.infra.eventLog.readAfter(p.projectId, start);
    expect(events.map((e) => e.seq)).toEqual(Array.from({ length: 20 }, (_, i) => start + i + 1));
  });

  it('appends the events of one transaction in the order they were emitted, and publishes them so', async () => {
    const start = (await t.infra.eventLog.readAfter(p.projectId, 0, 10_000)).at(-1)!.seq;
    const committed: LoggedEvent[] = [];
    const stop = t.infra.eventLog.onCommit((event) => event.name.startsWith('event.emit.several') && committed.push(event));
    await t.infra.eventLog.transaction(async (_tx, emit) => {
      for (const n of [1, 2, 3]) await emit({ projectId: p.projectId, name: `event.emit.several.${n}`, subject: String(n), payload: { n, b: [n] } });
    });
    stop();
    const events = await t.infra.eventLog.readAfter(p.projectId, start);
    expect(events.map((e) => [e.seq, e.name, e.subject, e.payload])).toEqual(
      [1, 2, 3].map((n) => [start + n, `event.emit.several.${n}`, String(n), { n, b: [n] }]),
    );
    expect(committed).toEqual(events);
  });

  it('writes nothing when the transaction fails', async () => {
    const before = (await t.infra.eventLog.readAfter(p.projectId, 0, 10_000)).length;
    await expect(
      t.infra.eventLog.transaction(async (_tx, emit) => {
        await emit({ projectId: p.projectId, name: 'event.emit.rolled-back', subject: 'x' });
        throw new Error('abort');
      }),
    ).rejects.toThrow('abort');
    expect((await t.infra.eventLog.readAfter(p.projectId, 0, 10_000)).length).toBe(before);
  });

  it('streams live events and replays everything after a given sequence first', async () => {
    const deps = { db: t.infra.database.prisma, bus: t.infra.bus, eventLog: t.infra.eventLog };
    const from = (await t.infra.eventLog.readAfter(p.projectId, 0, 10_000)).at(-1)!.seq;
    await t.infra.eventLog.transaction((_tx, emit) => emit({ projectId: p.projectId, name: 'event.emit.missed', subject: 'a' }));
    const stream = projectEventStream(deps, p.projectId, from);
    const iterator = stream[Symbol.asyncIterator]();
    const first = await iterator.next();
    expect(first.value).toMatchObject({ name: 'event.emit.missed', seq: from + 1 });
    await t.infra.eventLog.transaction((_tx, emit) => emit({ projectId: p.projectId, name: 'event.emit.live', subject: 'b' }));
    const second = await iterator.next();
    expect(second.value).toMatchObject({ name: 'event.emit.live', seq: from + 2 });
    await iterator.return?.();
  });

  it('fills a gap in the live feed from the log, with no duplicate', async () => {
    const deps = { db: t.infra.database.prisma, bus: t.infra.bus, eventLog: t.infra.eventLog };
    const from = (await t.infra.eventLog.readAfter(p.projectId, 0, 10_000)).at(-1)!.seq;
    const iterator = projectEventStream(deps, p.projectId, from)[Symbol.asyncIterator]();
    const emit = (name: CustomEventName) =>
      t.infra.eventLog.transaction((_tx, log) => log({ projectId: p.projectId, name, subject: name }));
    await emit('event.emit.warmup');
    expect((await iterator.next()).value.seq).toBe(from + 1);
    // Committed but never published, as when a node dies between commit and publish.
    await t.infra.database.prisma.$transaction(async (tx) => {
      const [{ seq }] = await tx.$queryRaw<{ seq: bigint }[]>`UPDATE "Project" SET "eventSeq" = "eventSeq" + 1 WHERE "id" = ${p.projectId} RETURNING "eventSeq" AS seq`;
      await tx.domainEvent.create({ data: { id_project: p.projectId, seq, name: 'event.emit.unpublished', subject: 'u' } });
    });
    await emit('event.emit.after-gap');
    await emit('event.emit.after-gap-2');
    const received = [];
    for (let i = 0; i < 3; i++) received.push((await iterator.next()).value);
    expect(received.map((e) => e.seq)).toEqual([from + 2, from + 3, from + 4]);
    expect(received.map((e) => e.name)).toEqual(['event.emit.unpublished', 'event.emit.after-gap', 'event.emit.after-gap-2']);
    await iterator.return?.();
  });
});

describe('queryRows (hot statements straight on the driver)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('answers the same text, int, boolean and JSON columns as Prisma, with timestamps read as UTC', async () => {
    const at = new Date('2026-03-04T05:06:07.089Z');
    const statement = Prisma.sql`${Prisma.raw(prepared)}SELECT ${at}::timestamp(3)::text AS "at", ${41}::int + 1 AS "n",
      ${['a', 'b']}::text[] @> ARRAY['b'] AS "has", ${JSON.stringify({ k: [1, 'x'] })}::jsonb AS "doc", ${"it's"}::text AS "quote"`;
    const zone = process.env.TZ;
    process.env.TZ = 'America/New_York'; // A local time that is not UTC must not leak into the value.
    const direct = await queryRows(t.infra.database.prisma, statement).finally(() => {
      if (zone === undefined) delete process.env.TZ;
      else process.env.TZ = zone;
    });
    expect(direct).toEqual([{ at: '2026-03-04 05:06:07.089', n: 42, has: true, doc: { k: [1, 'x'] }, quote: "it's" }]);
    expect(direct).toEqual(await t.infra.database.prisma.$queryRaw(statement));
  });

  const onPostgres = () => t.infra.database.kind === 'postgres';
  const pidOf = async (text: string) =>
    (await queryRows<{ pid: number }>(t.infra.database.prisma, Prisma.sql`${Prisma.raw(text)} SELECT pg_backend_pid() AS "pid"`))[0].pid;

  it('runs prepared statements with one plan for any values, and others with plans for their values', async ({ skip }) => {
    if (!onPostgres()) skip('the embedded database has one connection and plans as Prisma does');
    const mode = (text: string) =>
      queryRows<{ mode: string }>(t.infra.database.prisma, Prisma.sql`${Prisma.raw(text)} SELECT current_setting('plan_cache_mode') AS "mode"`);
    expect(await mode(prepared)).toEqual([{ mode: 'force_generic_plan' }]);
    expect(await mode('')).toEqual([{ mode: 'auto' }]);
    expect(await t.infra.database.prisma.$queryRaw`SELECT current_setting('plan_cache_mode') AS "mode"`).toEqual([{ mode: 'auto' }]);
  });

  it('keeps at most DATABASE_POOL_SIZE connections busy, the others waiting their turn', async ({ skip }) => {
    if (!onPostgres()) skip('the embedded database has one connection');
    const size = t.infra.config.databasePoolSize;
    const busy = () => queryRows<{ pid: number }>(t.infra.database.prisma, Prisma.sql`SELECT pg_backend_pid() AS "pid" FROM pg_sleep(0.02)`);
    const pids = (await Promise.all(Array.from({ length: size * 3 }, busy))).map(([row]) => row.pid);
    expect(new Set(pids).size).toBeLessThanOrEqual(size);
  });

  it('answers the error of a prepared statement that fails, and runs the next one', async () => {
    const divide = (by: number) =>
      queryRows<{ q: number }>(t.infra.database.prisma, Prisma.sql`${Prisma.raw(prepared)} SELECT (10 / ${by}::int)::int AS "q"`);
    await expect(divide(0)).rejects.toThrow(/division by zero/);
    expect(await divide(5)).toEqual([{ q: 2 }]);
  });

  it('closes a connection once it has prepared more than 200 statements, and the statements with it', async ({ skip }) => {
    if (!onPostgres()) skip('the embedded database has one connection');
    // One call at a time takes the same idle connection back each time, until it is closed.
    const pids: number[] = [];
    for (let i = 0; i < 450; i++) pids.push(await pidOf(`${prepared} /* ${i} */`));
    const runs: number[] = [];
    pids.forEach((pid, i) => (i > 0 && pid === pids[i - 1] ? runs[runs.length - 1]++ : runs.push(1)));
    expect(runs.length).toBeGreaterThan(1);
    expect(Math.max(...runs)).toBeLessThanOrEqual(201);
    expect(runs.slice(1, -1)).toEqual(runs.slice(1, -1).map(() => 201));
  });
});

describe.skipIf(process.env.DATABASE_URL)('in-memory embedded databases reopened after close (the suite recycles them)', () => {
  const open = () => openDatabase({ pgliteDir: 'memory://', poolSize: 1, logger });

  it('hold only what the migrations made: no rows, no table made at run time, sequences restarted', async () => {
    const first = await open();
    await first.prisma.tag.create({ data: { id_project: 'p1', tag: 'kept?', createdBy: 'test' } });
    await first.prisma.$executeRawUnsafe('CREATE TABLE "MadeAtRunTime" ("id" TEXT)');
    const [{ version: before }] = await first.prisma.$queryRawUnsafe<Array<{ version: bigint }>>(`SELECT nextval('"LeadListVersion_version_seq"') AS version`);
    await first.close();

    const second = await open();
    try {
      expect(await second.prisma.tag.count()).toBe(0);
      const made = await second.prisma.$queryRawUnsafe<unknown[]>(`SELECT 1 FROM pg_tables WHERE tablename = 'MadeAtRunTime'`);
      expect(made).toEqual([]);
      const [{ version: after }] = await second.prisma.$queryRawUnsafe<Array<{ version: bigint }>>(`SELECT nextval('"LeadListVersion_version_seq"') AS version`);
      expect(after).toBe(before);
    } finally {
      await second.close();
    }
  });

  it('are not ready once closed', async () => {
    const database = await open();
    expect(await database.ping()).toBe(true);
    await database.close();
    expect(await database.ping()).toBe(false);
  });
});
