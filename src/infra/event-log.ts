import type { Db, Tx } from './database.js';
import type { EventBus } from './event-bus.js';

// Every domain event is appended to DomainEvent inside the transaction of the change that
// causes it, with a per-project sequence number, and published on the bus after commit.
// Live readers use the bus; anyone who may have missed something reads the table by sequence.

export interface DomainEventInput {
  projectId: string;
  /** Catalogue name, e.g. `request.create`. */
  name: string;
  /** Identifier of the record the event is about. */
  subject: string;
  /** Small JSON: identifiers and changed field names, never whole records. */
  payload?: Record<string, unknown>;
}

export interface LoggedEvent {
  id: string;
  projectId: string;
  seq: number;
  name: string;
  subject: string;
  payload: Record<string, unknown>;
  createdAt: string;
}

export type Emit = (event: DomainEventInput) => Promise<LoggedEvent>;

export const projectChannel = (projectId: string) => `project:${projectId}`;

export type CommitListener = (event: LoggedEvent) => void;

export class EventLog {
  private commitListeners = new Set<CommitListener>();

  constructor(
    private db: Db,
    readonly bus: EventBus,
  ) {}

  /**
   * Calls `listener` for each event this process commits, once published: for work to do once per
   * event, in the process that wrote it (no bus hop, no copy per node). It must not throw.
   */
  onCommit(listener: CommitListener): () => void {
    this.commitListeners.add(listener);
    return () => this.commitListeners.delete(listener);
  }

  /** Runs `work` in one transaction; the events it emits commit with it and are published after. */
  async transaction<T>(work: (tx: Tx, emit: Emit) => Promise<T>): Promise<T> {
    const emitted: LoggedEvent[] = [];
    const result = await this.db.$transaction(async (tx) => {
      const emit: Emit = async (event) => {
        const logged = await append(tx, event);
        emitted.push(logged);
        return logged;
      };
      return work(tx, emit);
    });
    for (const event of emitted) {
      await this.publish(event);
      for (const listener of this.commitListeners) listener(event);
    }
    return result;
  }

  async publish(event: LoggedEvent) {
    await this.bus.publish(projectChannel(event.projectId), { ...event });
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

async function append(tx: Tx, event: DomainEventInput): Promise<LoggedEvent> {
  // The row lock on the project serialises writers, so sequence numbers have no gaps.
  const [{ seq }] = await tx.$queryRaw<{ seq: bigint }[]>`
    UPDATE "Project" SET "eventSeq" = "eventSeq" + 1 WHERE "id" = ${event.projectId} RETURNING "eventSeq" AS seq`;
  const row = await tx.domainEvent.create({
    data: {
      id_project: event.projectId,
      seq,
      name: event.name,
      subject: event.subject,
      payload: (event.payload ?? {}) as object,
    },
  });
  return toLogged(row);
}

/** A DomainEvent row as the event it records. */
export function toLogged(row: {
  id: string;
  id_project: string;
  seq: bigint;
  name: string;
  subject: string;
  payload: unknown;
  createdAt: Date;
}): LoggedEvent {
  return {
    id: row.id,
    projectId: row.id_project,
    seq: Number(row.seq),
    name: row.name,
    subject: row.subject,
    payload: (row.payload ?? {}) as Record<string, unknown>,
    createdAt: row.createdAt.toISOString(),
  };
}
