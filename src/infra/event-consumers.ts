import { randomUUID } from 'node:crypto';
import { asBegunWork } from './connection-admission.js';
import type { Db, Tx } from './database.js';
import type { EventBus } from './event-bus.js';
import { toLogged, wakeChannel, type EventLog, type EventRow, type LoggedEvent } from './event-log.js';
import type { BackgroundTask } from './job-queue.js';
import type { Logger } from './logger.js';

// The one way committed events reach the work they call for (webhook deliveries, bot turns,
// e-mail notifications). Each consumer has a cursor per project (EventCursor: the last sequence
// it handled) and reads the project's events after it, in order, in batches. What a batch calls
// for is done before the cursor moves past it, and what it writes to the database commits in the
// transaction that moves the cursor, so a process dying anywhere leaves the batch to read again
// and nothing is written twice (effects outside the database, such as queued jobs, are keyed by
// the event, so the second try is a no-op). A process claims a cursor while it handles its batch
// (for 10 s at most, so a process that died is taken over), so two processes woken by the same
// events do not both do the work; should a claim lapse mid-batch, the cursor's move is a compare
// and set, and only the first to move it writes.
//
// A consumer runs wherever the dispatcher runs: beside the workers (the server by default, or the
// `workers/` processes). It is woken by the events this process commits, by the events other
// processes commit when this one has no dispatcher of its own (the bus's wake channel), and by a
// sweep every `EVENT_SWEEP_INTERVAL` (and after a bus gap) that finds the projects whose events
// are past a consumer's cursor. Realtime readers are not consumers: they follow the bus, and read
// the log by sequence when they missed something.

/** What a batch calls for beyond `handle`: the cursor moves past the batch once `settled`, with `write`. */
export interface EventWork {
  /** Work started by `handle` that the cursor waits for (bots' turns), without holding the dispatcher's slot. */
  settled?: Promise<void>;
  /** Written in the transaction that moves the consumer's cursor past the batch. */
  write?(tx: Tx): Promise<void>;
  /** After the commit: what may be lost to a crash because something else recovers it. */
  committed?(): Promise<void>;
}

export interface EventConsumer {
  /** Its cursors' name; a new name starts from each project's first event. */
  readonly name: string;
  /** The events it reads; the others only move its cursor. */
  wants(event: LoggedEvent): boolean;
  /**
   * Whether an event just committed calls for a run now (default: `wants`). Those that do not
   * are read with the next run, or by the sweep.
   */
  wakesFor?(event: LoggedEvent): boolean;
  /**
   * Handles a batch of one project's wanted events, oldest first. It may run again for the same
   * events (a crash before the cursor moved), so what it does outside the database is idempotent.
   * An event it cannot handle is logged and passed over, not thrown: a throw reads the batch again.
   */
  handle(projectId: string, events: LoggedEvent[]): Promise<EventWork | void>;
  /**
   * Events read per batch (`batchSize` by default). A consumer whose events each cost a search
   * reads fewer, so that it holds the process's one slot (see Slot) for a moment at a time and
   * the others, whose batches are quick, take their turns meanwhile.
   */
  readonly batchSize?: number;
}

const batchSize = 200;
/** How long a process's claim on a cursor holds: past it, a process that died is taken over. */
const claimMs = 10_000;
/** How soon a process that found another's claim looks again. */
const retryMs = 100;
/** A consumer and a project, as this process's maps of runs, retries and known cursors key them. */
const pairKey = (consumer: EventConsumer, projectId: string) => `${consumer.name}\u0000${projectId}`;

/** Cursor rows this process knows exist (created on first use). */
const knownKept = 100_000;

/**
 * Batches read and handled at once in a process: one, so that the consumers woken by a commit
 * take one of the database pool's few connections at a time and never hold up the requests being
 * served (three at once, on a pool of four, delayed an agent's inbox by half a second under load).
 */
class Slot {
  private busy = false;
  private waiting: Array<() => void> = [];

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.busy) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.busy = true;
    try {
      // Begun work: its connections wait ahead of new requests rather than being refused (connection-admission.ts).
      return await asBegunWork(work);
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.busy = false;
    }
  }
}

export class EventConsumers {
  private consumers: EventConsumer[] = [];
  private runs = new Map<string, Promise<void>>();
  private again = new Set<string>();
  private stopped = true;
  /** This process, as its claims on cursors name it. */
  private readonly me = randomUUID();
  private known = new Set<string>();
  private retries = new Map<string, NodeJS.Timeout>();
  private slot = new Slot();

  constructor(
    private db: Db,
    private log: EventLog,
    private bus: EventBus,
    private sweepIntervalMs: number,
    private logger: Logger,
  ) {}

  /** Adds a consumer; it runs once this process starts its workers. */
  register(consumer: EventConsumer) {
    if (this.consumers.some((c) => c.name === consumer.name)) throw new Error(`event consumer ${consumer.name} registered twice`);
    this.consumers.push(consumer);
  }

  /** The consumer registered under `name` (what a test stalls to kill a process mid-consequence). */
  consumer(name: string): EventConsumer | undefined {
    return this.consumers.find((c) => c.name === name);
  }

  /** Runs beside the workers. */
  task(): BackgroundTask {
    return {
      name: 'event-consumers',
      start: async () => {
        this.stopped = false;
        const unlisten = this.log.onCommit((event) => this.woken(event));
        this.log.dispatchedHere(true);
        const unwake = this.bus.subscribe(wakeChannel, (message) => {
          for (const event of Array.isArray(message.events) ? (message.events as LoggedEvent[]) : []) this.woken(event);
        });
        const ungap = this.bus.onGap(() => void this.sweep());
        let sweeping: Promise<void> | undefined;
        const tick = () => {
          sweeping ??= this.sweep().finally(() => (sweeping = undefined));
        };
        const timer = setInterval(tick, this.sweepIntervalMs);
        timer.unref();
        tick();
        return async () => {
          this.stopped = true;
          clearInterval(timer);
          for (const retry of this.retries.values()) clearTimeout(retry);
          this.retries.clear();
          unlisten();
          this.log.dispatchedHere(false);
          unwake();
          ungap();
          await sweeping;
          await Promise.allSettled([...this.runs.values()]);
        };
      },
    };
  }

  private woken(event: LoggedEvent) {
    for (const consumer of this.consumers) {
      if ((consumer.wakesFor ?? consumer.wants).call(consumer, event)) void this.run(consumer, event.projectId);
    }
  }

  /** Every project whose events are past some consumer's cursor, read up to its last event. */
  async sweep() {
    try {
      for (const consumer of this.consumers) {
        if (this.stopped) return;
        const behind = await this.db.$queryRaw<Array<{ id: string }>>`
          SELECT p."id" FROM "Project" p
          LEFT JOIN "EventCursor" c ON c."consumer" = ${consumer.name} AND c."id_project" = p."id"
          WHERE p."eventSeq" > COALESCE(c."seq", 0)`;
        for (const { id } of behind) await this.run(consumer, id);
      }
    } catch (error) {
      this.logger.error({ err: error }, 'event consumers sweep failed');
    }
  }

  /** Reads a project's events for one consumer up to the last; one run per pair at a time, rerun if asked meanwhile. */
  run(consumer: EventConsumer, projectId: string): Promise<void> {
    const key = pairKey(consumer, projectId);
    const running = this.runs.get(key);
    if (running) {
      this.again.add(key);
      return running;
    }
    const run = (async () => {
      do {
        this.again.delete(key);
        while (!this.stopped && (await this.batch(consumer, projectId)) === (consumer.batchSize ?? batchSize));
      } while (this.again.has(key) && !this.stopped);
    })()
      .catch((error) => this.logger.error({ err: error, consumer: consumer.name, project: projectId }, 'event consumer failed; its events are read again'))
      .finally(() => this.runs.delete(key));
    this.runs.set(key, run);
    return run;
  }

  /**
   * One batch past the cursor, claimed for this process while it handles it (so two processes
   * woken by the same events do not both take bots' turns or render the same payloads); answers
   * how many events it read: 0 when there were none, or when another process holds the claim (this
   * one looks again shortly, as that one may have read before the events that woke this one).
   */
  private async batch(consumer: EventConsumer, projectId: string): Promise<number> {
    const handled = await this.slot.run(() => this.claimAndHandle(consumer, projectId));
    if (!handled) return 0;
    const { from, events, work } = handled;
    await work?.settled;
    const to = BigInt(events[events.length - 1].seq);
    // Compare and set: a process whose claim lapsed while it worked finds the cursor moved, and writes nothing.
    const move = (db: Db | Tx) => db.$executeRaw`
      UPDATE "EventCursor" SET "seq" = ${to}, "claimedBy" = NULL, "claimedUntil" = NULL, "updatedAt" = CURRENT_TIMESTAMP
      WHERE "consumer" = ${consumer.name} AND "id_project" = ${projectId} AND "seq" = ${from}`;
    const write = work?.write;
    const moved = await this.slot.run(async () =>
      write
        ? this.db.$transaction(async (tx) => {
            if (!(await move(tx))) return false;
            await write(tx);
            return true;
          })
        : (await move(this.db)) > 0,
    );
    if (!moved) return 0;
    await work?.committed?.().catch((error) => this.logger.error({ err: error, consumer: consumer.name, project: projectId }, 'event consumer: after-commit work failed'));
    return events.length;
  }

  /** Claims the batch past the cursor and hands its wanted events to the consumer; nothing when there is none to claim. */
  private async claimAndHandle(consumer: EventConsumer, projectId: string) {
    const key = pairKey(consumer, projectId);
    if (!this.known.has(key)) {
      await this.db.$executeRaw`
        INSERT INTO "EventCursor" ("consumer", "id_project", "seq", "updatedAt")
        VALUES (${consumer.name}, ${projectId}, 0, CURRENT_TIMESTAMP) ON CONFLICT DO NOTHING`;
      if (this.known.size >= knownKept) this.known.clear();
      this.known.add(key);
    }
    // Claims the cursor when events are past it and no other process's claim holds, and reads
    // those events, in one round trip. The claim's times are the session's local time on both sides.
    const rows = await this.db.$queryRaw<Array<Partial<EventRow> & { cursor: bigint | null; behind: boolean | null }>>`
      WITH "current" AS (SELECT "seq" FROM "EventCursor" WHERE "consumer" = ${consumer.name} AND "id_project" = ${projectId}),
      "claim" AS (
        UPDATE "EventCursor" c SET "claimedBy" = ${this.me}, "claimedUntil" = LOCALTIMESTAMP + ${claimMs} * interval '1 millisecond'
        WHERE c."consumer" = ${consumer.name} AND c."id_project" = ${projectId}
          AND (c."claimedUntil" IS NULL OR c."claimedUntil" < LOCALTIMESTAMP OR c."claimedBy" = ${this.me})
          AND EXISTS (SELECT 1 FROM "DomainEvent" x WHERE x."id_project" = c."id_project" AND x."seq" > c."seq")
        RETURNING c."seq")
      SELECT (SELECT "seq" FROM "claim") AS "cursor",
        (SELECT p."eventSeq" > (SELECT "seq" FROM "current") FROM "Project" p WHERE p."id" = ${projectId}) AS "behind",
        e."id", e."id_project", e."seq", e."name", e."subject", e."payload", e."createdAt"
      FROM (SELECT 1) AS "one"
      LEFT JOIN "DomainEvent" e ON e."id_project" = ${projectId} AND e."seq" > (SELECT "seq" FROM "claim")
      ORDER BY e."seq" LIMIT ${consumer.batchSize ?? batchSize}`;
    const from = rows[0]?.cursor ?? null;
    if (from === null) {
      if (rows[0]?.behind) this.later(consumer, projectId);
      return null;
    }
    const events = rows.filter((row) => row.id).map((row) => toLogged(row as EventRow));
    if (!events.length) return null;
    const wanted = events.filter((event) => consumer.wants(event));
    const work = wanted.length ? await consumer.handle(projectId, wanted) : undefined;
    return { from, events, work: work ?? undefined };
  }

  /** Runs the pair again shortly: another process holds its claim. */
  private later(consumer: EventConsumer, projectId: string) {
    const key = pairKey(consumer, projectId);
    if (this.stopped || this.retries.has(key)) return;
    const timer = setTimeout(() => {
      this.retries.delete(key);
      void this.run(consumer, projectId);
    }, retryMs);
    timer.unref();
    this.retries.set(key, timer);
  }
}
