import { Prisma } from '../generated/prisma/client.js';
import { prepared, type Db, type Tx } from './database.js';
import type { AuditDetail, DomainEventInput, DomainEventName } from '../events.js';
import { recordAudited } from '../modules/audit/record.js';
import type { EventBus } from './event-bus.js';
import { cuid } from './ids.js';
import type { Logger } from './logger.js';
import { afterRequestCommit } from './request-transaction.js';

// Every domain event is appended to DomainEvent inside the transaction of the change that
// causes it, with a per-project sequence number, and published on the bus after commit.
// Live readers use the bus; anyone who may have missed something reads the table by sequence.
//
// `emit` only records the event: the transaction appends all of its events at its very end, one
// statement per project, which takes the next sequence numbers under the project's row lock
// (held until commit, so sequence numbers have no gaps) and inserts the rows. The lock is thus
// held for as short a time as possible, and never while the transaction still waits for others.

export type { DomainEventInput };

export interface LoggedEvent {
  id: string;
  projectId: string;
  seq: number;
  name: DomainEventName;
  subject: string;
  payload: Record<string, unknown>;
  createdAt: string;
}

/** Records an event; it is appended (and gets its sequence number) when the transaction ends. */
export type Emit = (event: DomainEventInput) => Promise<void>;

/** An event not appended yet: everything but its sequence number. */
export interface PendingEvent {
  id: string;
  projectId: string;
  name: DomainEventName;
  subject: string;
  payload: Record<string, unknown>;
  createdAt: Date;
  /** For the audit log only (never in the event's payload). */
  audit?: AuditDetail;
}

/** Identifier and time are set when the event is emitted, as the table's defaults would. */
export function pendingEvent(event: DomainEventInput, createdAt = new Date()): PendingEvent {
  return { id: cuid(), projectId: event.projectId, name: event.name, subject: event.subject, payload: event.payload ?? {}, createdAt, audit: event.audit };
}

export const projectChannel = (projectId: string) => `project:${projectId}`;

export type CommitListener = (event: LoggedEvent) => void;

/** Carries the events a process without an event dispatcher commits to the processes that have one (event-consumers.ts). */
export const wakeChannel = 'events:committed';

export class EventLog {
  private commitListeners = new Set<CommitListener>();
  private dispatchers = 0;

  constructor(
    private db: Db,
    readonly bus: EventBus,
    private logger?: Logger,
  ) {}

  /**
   * Calls `listener` for each event this process commits, once published: for work to do once per
   * event, in the process that wrote it (no bus hop, no copy per node). It must not throw.
   */
  onCommit(listener: CommitListener): () => void {
    this.commitListeners.add(listener);
    return () => this.commitListeners.delete(listener);
  }

  /** An event dispatcher runs in this process (or stopped): without one, committed events wake those elsewhere. */
  dispatchedHere(running: boolean) {
    this.dispatchers += running ? 1 : -1;
  }

  /** Runs `work` in one transaction; the events it emits commit with it and are published after. */
  async transaction<T>(work: (tx: Tx, emit: Emit) => Promise<T>): Promise<T> {
    let emitted: LoggedEvent[] = [];
    const result = await this.db.$transaction(async (tx) => {
      const pending: PendingEvent[] = [];
      const value = await work(tx, async (event) => void pending.push(pendingEvent(event)));
      emitted = await append(tx, pending);
      // The audited ones commit with their audit entries (src/modules/audit).
      await recordAudited(tx, pending);
      return value;
    });
    await this.committed(emitted);
    return result;
  }

  /**
   * Publishes events once committed and tells the commit listeners, in order: for `transaction`,
   * and for a single statement that appended its events itself (`appendEventsSql`). Never throws:
   * the write committed, so its answer is a success whatever happens to the bus; a publish the bus
   * could not make reaches readers from the log (by sequence) and the webhook sweep.
   */
  async committed(events: LoggedEvent[]) {
    // Inside a request that runs in one transaction, its commit is still to come.
    if (events.length && afterRequestCommit(() => this.committed(events))) return;
    // Sent together, without waiting for each: the bus keeps their order (one connection).
    await Promise.all([
      ...events.map((event) => this.publish(event)),
      // A wake lost with the bus is made up by the dispatchers' sweep.
      ...(this.dispatchers || !events.length ? [] : [this.bus.publish(wakeChannel, { events }).catch(() => {})]),
    ]);
    for (const event of events) {
      for (const listener of this.commitListeners) {
        try {
          listener(event);
        } catch (error) {
          this.logger?.error({ err: error, event: event.id }, 'a commit listener failed');
        }
      }
    }
  }

  async publish(event: LoggedEvent) {
    try {
      await this.bus.publish(projectChannel(event.projectId), { ...event });
    } catch (error) {
      this.logger?.warn({ err: (error as Error).message, event: event.id }, 'event not published; readers catch up from the log');
    }
  }

  /** Events of a project with sequence greater than `after`, oldest first. */
  async readAfter(projectId: string, after: number, limit = 500): Promise<LoggedEvent[]> {
    const rows = await this.db.domainEvent.findMany({
      where: { id_project: projectId, seq: { gt: BigInt(after) } },
      orderBy: { seq: 'asc' },
      take: limit,
    });
    return rows.map(toLogged);
  }
}

/** Appends a transaction's events, in the order they were emitted: one statement per project. */
async function append(tx: Tx, events: PendingEvent[]): Promise<LoggedEvent[]> {
  if (!events.length) return [];
  const byProject = new Map<string, PendingEvent[]>();
  for (const event of events) byProject.set(event.projectId, [...(byProject.get(event.projectId) ?? []), event]);
  const logged = new Map<string, LoggedEvent>();
  for (const [projectId, group] of byProject) {
    const rows = await tx.$queryRaw<EventRow[]>`${Prisma.raw(prepared)}WITH ${appendEventsSql(projectId, group)} SELECT * FROM "appended"`;
    if (rows.length !== group.length) throw new Error(`event log: no project ${projectId} to append ${group[0].name} to`);
    for (const row of rows) logged.set(row.id, toLogged(row));
  }
  return events.map((e) => logged.get(e.id)!);
}

/**
 * The WITH entries that append `events` (all of project `projectId`, in order) as part of one
 * statement: `"appended_seq"` moves the project's sequence on (its row lock serialises writers
 * until commit, so sequence numbers have no gaps), `"appended"` inserts the rows and returns them
 * as DomainEvent rows. With `only` (a condition on `x`, the event: `x."id"`, `x."subject"`...), the
 * statement appends just the events it holds for, numbered in order without gaps, and nothing
 * (the sequence untouched) when it holds for none.
 */
export function appendEventsSql(projectId: string, events: PendingEvent[], only?: Prisma.Sql): Prisma.Sql {
  return appendEventRowsSql(projectId, only ? Prisma.sql`${eventRowsSql(events)} WHERE ${only}` : eventRowsSql(events));
}

/** `events` as rows `x` of the columns `appendEventRowsSql` reads, `i` their place (from 1). */
export function eventRowsSql(events: PendingEvent[]): Prisma.Sql {
  const rows = events.map((e, i) => ({
    i: i + 1,
    id: e.id,
    name: e.name,
    subject: e.subject,
    payload: e.payload,
    createdAt: e.createdAt.toISOString(),
  }));
  return Prisma.sql`SELECT * FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
        AS x("i" int, "id" text, "name" text, "subject" text, "payload" jsonb, "createdAt" timestamp(3))`;
}

/**
 * As `appendEventsSql`, for events a statement makes of its own rows (a subject or payload known
 * only in the database): `rows` is a query of the columns `eventRowsSql` gives, appended in the
 * order of `i`.
 */
export function appendEventRowsSql(projectId: string, rows: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`"appending" AS MATERIALIZED (
      SELECT x.*, row_number() OVER (ORDER BY x."i") AS "n" FROM (${rows}) x),
    "appended_seq" AS (
      UPDATE "Project" SET "eventSeq" = "eventSeq" + (SELECT count(*) FROM "appending")
      WHERE "id" = ${projectId} AND EXISTS (SELECT 1 FROM "appending")
      RETURNING "eventSeq" - (SELECT count(*) FROM "appending") AS "before"),
    "appended" AS (
      INSERT INTO "DomainEvent" ("id", "id_project", "seq", "name", "subject", "payload", "createdAt")
      SELECT a."id", ${projectId}, s."before" + a."n", a."name", a."subject", COALESCE(a."payload", '{}'::jsonb), a."createdAt"
      FROM "appended_seq" s, "appending" a
      ORDER BY a."n"
      RETURNING "id", "id_project", "seq", "name", "subject", "payload", "createdAt")`;
}

/** A row of the event table, as raw queries over it read it (the followers: webhooks, e-mail). */
export interface EventRow {
  id: string;
  id_project: string;
  seq: bigint;
  name: string;
  subject: string;
  payload: unknown;
  createdAt: Date;
}

/** A DomainEvent row as the event it records. */
export function toLogged(row: EventRow): LoggedEvent {
  return {
    id: row.id,
    projectId: row.id_project,
    seq: Number(row.seq),
    // Only `emit` writes the table, and it takes catalogued names only.
    name: row.name as DomainEventName,
    subject: row.subject,
    payload: (row.payload ?? {}) as Record<string, unknown>,
    createdAt: row.createdAt.toISOString(),
  };
}
