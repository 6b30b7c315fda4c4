import { Prisma, type Message, type Request } from '../../generated/prisma/client.js';
import { prepared, type Db } from '../../infra/database.js';
import { appendEventsSql, appendedEvents, pendingEvent, type EventLog, type LoggedEvent } from '../../infra/event-log.js';
import { cuid } from '../../infra/ids.js';
import { surelyVisibleCondition, viewerKind } from '../requests/access.js';
import { relationColumns, relationsFromRow, type RelationRow, type RequestRelations } from '../requests/relations.js';
import { MessageStatus, RequestStatus } from '../requests/states.js';
import type { Actor } from '../requests/actor.js';

// The common message post, written in batches: a message to an existing, open request the caller
// surely may write to, and which changes nothing on the request (see `MessageService.afterMessage`).
//
// Posts to one project wait while a batch of that project is being written on this node, and the
// next batch takes all of them (group commit): one statement locks their requests (in id order),
// decides each post on its locked row, inserts the messages and appends their `message.create`
// events (taking the project's sequence lock once, last). Under load that is one statement, one
// commit and one sequence lock for many posts instead of one each; alone, a post is written at
// once, as before. A post whose request is missing or whose conditions fail writes nothing and
// comes back as null: `MessageService.post` then takes the general path, which creates the
// request, answers the error or applies the change, under the same rules.

export interface QuickPost {
  actor: Actor;
  requestId: string;
  text: string;
  type: string;
  metadata?: Record<string, unknown>;
  attributes: Record<string, unknown>;
  hidden: boolean;
  /** The client's timestamp, when it gave one. */
  createdAt?: Date;
}

export interface QuickWritten {
  message: Message;
  request: Request;
  relations: RequestRelations;
  event: LoggedEvent;
}

interface Waiting extends QuickPost {
  resolve(written: QuickWritten | null): void;
  reject(error: unknown): void;
}

/** At most this many posts per statement; more wait for the next one. */
const maxBatch = 100;

// The statement answers, per post whose request exists, the request's columns under their own
// names, the message's and the event's under prefixes, then what the request points to. The
// columns are named (no `*`): the statement is prepared, and a prepared statement's result must
// not change shape when a migration adds a column.
const requestColumns = Object.values(Prisma.RequestScalarFieldEnum);
const messageColumns = Object.values(Prisma.MessageScalarFieldEnum);
const eventColumns = ['id', 'id_project', 'seq', 'name', 'subject', 'payload', 'createdAt'] as const;
const columnList = (table: string, columns: readonly string[], prefix = '') =>
  Prisma.raw(columns.map((c) => `${table}."${c}"${prefix ? ` AS "${prefix}${c}"` : ''}`).join(', '));

/**
 * The SQL form, on the locked row `r` and the post `x`, of the checks `assertCanWrite` and
 * `afterMessage` make: the request is open, and for a teammate (`kind` set; a bot has none, and
 * field auth has checked it takes part) the request is surely visible to them, the message does
 * not route it (the requester writing to a preflight or abandoned request), and it is not an agent's
 * first response.
 */
const writable = Prisma.sql`r."status" <> ${RequestStatus.CLOSED} AND (x."kind" = 'bot' OR (
    ${surelyVisibleCondition({ kind: Prisma.sql`x."kind"`, teammateId: Prisma.sql`x."teammate"`, userId: Prisma.sql`x."user"` })}
    AND NOT (COALESCE(r."requester_id" = x."teammate", FALSE) AND r."status" IN (${RequestStatus.TEMPORARY}, ${RequestStatus.ABANDONED}))
    AND NOT (x."kind" <> 'end-user' AND NOT COALESCE(r."requester_id" = x."teammate", FALSE) AND r."first_response_at" IS NULL)))`;

function statement(projectId: string, posts: Waiting[], now: Date) {
  const rows = posts.map((post, k) => ({
    i: k + 1,
    id: cuid(),
    request_id: post.requestId,
    sender: post.actor.userId,
    senderFullname: post.actor.fullname,
    text: post.text,
    type: post.type,
    metadata: post.metadata ?? null,
    attributes: post.attributes,
    hidden: post.hidden,
    createdAt: (post.createdAt ?? now).toISOString(),
    kind: post.actor.member ? viewerKind(post.actor.member.role) : 'bot',
    teammate: post.actor.member?.id ?? null,
    user: post.actor.member?.id_user ?? null,
  }));
  const events = rows.map((row) =>
    pendingEvent(
      { projectId, name: 'message.create', subject: row.id, payload: { request_id: row.request_id, sender: row.sender, hidden: row.hidden } },
      now,
    ),
  );
  return Prisma.sql`${Prisma.raw(prepared)}
    WITH "input" AS MATERIALIZED (
      SELECT * FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS x("i" int, "id" text, "request_id" text,
        "sender" text, "senderFullname" text, "text" text, "type" text, "metadata" jsonb, "attributes" jsonb,
        "hidden" boolean, "createdAt" timestamp(3), "kind" text, "teammate" text, "user" text)),
    "request" AS (
      SELECT r.*, x."i" AS "item", COALESCE(${writable}, FALSE) AS "quick"
      FROM "input" x JOIN "Request" r ON r."id_project" = ${projectId} AND r."request_id" = x."request_id"
      ORDER BY r."id", x."i"
      FOR UPDATE OF r),
    "message" AS (
      INSERT INTO "Message" ("id", "id_project", "request_id", "sender", "senderFullname", "recipient", "status", "text",
        "type", "metadata", "attributes", "hidden", "receipts", "createdBy", "createdAt", "updatedAt", "v")
      SELECT x."id", ${projectId}, x."request_id", x."sender", x."senderFullname", x."request_id", ${MessageStatus.RECEIVED},
        x."text", x."type", x."metadata", x."attributes", x."hidden", '{}'::jsonb, x."sender",
        x."createdAt", ${now}::timestamp(3), 0
      FROM "request" q JOIN "input" x ON x."i" = q."item"
      WHERE q."quick" AND EXISTS (SELECT 1 FROM "Project" WHERE "id" = ${projectId})
      ORDER BY x."i"
      RETURNING ${columnList('"Message"', messageColumns)}),
    ${appendEventsSql(projectId, events, Prisma.sql`x."subject" IN (SELECT "id" FROM "message")`)}
    SELECT r."item", ${columnList('r', requestColumns)}, ${columnList('m', messageColumns, 'm.')},
      ${columnList('e', eventColumns, 'e.')}, ${relationColumns}
    FROM "request" r JOIN "input" x ON x."i" = r."item"
      LEFT JOIN "message" m ON m."id" = x."id" LEFT JOIN "appended" e ON e."subject" = x."id"`;
}

const pick = (row: Record<string, unknown>, columns: readonly string[], prefix = '') =>
  Object.fromEntries(columns.map((c) => [c, row[`${prefix}${c}`]]));

export class QuickPoster {
  /** Per project with a batch being written: the posts waiting for the next one. */
  private waiting = new Map<string, Waiting[]>();

  /** `prepare` runs for each written post before its event is published (to prime caches). */
  constructor(
    private db: Db,
    private events: EventLog,
    private prepare: (written: QuickWritten) => void,
  ) {}

  /** Writes the post with others of its project, or answers null (nothing written) for the general path. */
  post(projectId: string, post: QuickPost): Promise<QuickWritten | null> {
    return new Promise((resolve, reject) => {
      const waiting = this.waiting.get(projectId);
      if (waiting) {
        waiting.push({ ...post, resolve, reject });
        return;
      }
      this.waiting.set(projectId, []);
      void this.run(projectId, [{ ...post, resolve, reject }]);
    });
  }

  private async run(projectId: string, batch: Waiting[]) {
    for (;;) {
      await this.write(projectId, batch);
      const waiting = this.waiting.get(projectId)!;
      if (!waiting.length) {
        this.waiting.delete(projectId);
        return;
      }
      batch = waiting.splice(0, maxBatch);
    }
  }

  /** One batch: settles every post of it, never throws. */
  private async write(projectId: string, batch: Waiting[]) {
    let rows: Record<string, unknown>[];
    try {
      rows = await this.db.$queryRaw<Record<string, unknown>[]>(statement(projectId, batch, new Date()));
    } catch (error) {
      // The statement wrote nothing (a deadlock, a serialisation failure, or one post the database
      // refused): the general path takes each post on its own, retrying or answering its error.
      for (const post of batch) post.resolve(null);
      return;
    }
    const written = new Map<number, QuickWritten>();
    try {
      for (const row of rows) {
        if (row['m.id'] === null) continue;
        if (row['e.id'] === null) throw new Error(`event log: no project ${projectId} to append message.create to`);
        const [event] = appendedEvents([pick(row, eventColumns, 'e.') as unknown as Parameters<typeof appendedEvents>[0][number]]);
        const post: QuickWritten = {
          message: pick(row, messageColumns, 'm.') as unknown as Message,
          request: pick(row, requestColumns) as unknown as Request,
          relations: relationsFromRow(row as unknown as RelationRow),
          event,
        };
        this.prepare(post);
        written.set(Number(row.item), post);
      }
      // Published in sequence order, as one commit's events are.
      await this.events.committed([...written.values()].map((w) => w.event).sort((a, b) => a.seq - b.seq));
    } catch (error) {
      // Written, but not published: as with any commit whose publishing fails, the caller hears it.
      for (const post of batch) post.reject(error);
      return;
    }
    batch.forEach((post, k) => post.resolve(written.get(k + 1) ?? null));
  }
}
