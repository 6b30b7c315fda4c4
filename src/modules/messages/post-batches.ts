import { Prisma, type Message, type Request } from '../../generated/prisma/client.js';
import { fromJsonTimestamp, prepared, queryRows, runsConcurrently, withJsonDates, type Db } from '../../infra/database.js';
import { appendEventRowsSql, eventRowsSql, pendingEvent, type EventLog, type LoggedEvent } from '../../infra/event-log.js';
import { cuid } from '../../infra/ids.js';
import { inRequestTransaction } from '../../infra/request-transaction.js';
import { requestInProgress, type RequestProgress } from '../../infra/request-scope.js';
import { conditionSql } from '../requests/conditions.js';
import { relationObject, relationsFromRow, type RelationRow, type RequestRelations } from '../requests/relations.js';
import type { Actor } from '../requests/actor.js';
import { messageDates, requestDates } from './with-requests.js';
import {
  authorParams,
  batchFallbacks,
  batchParams,
  firstResponded,
  firstResponseSql,
  isFirstResponse,
  messageCreated,
  messageRow,
  messageRowColumns,
  requesterUserSql,
  type FallbackReason,
  type MessageDraft,
} from './rules.js';

// The common message post, written in batches: a message to an existing, open request the caller
// surely may write to, and which changes nothing on the request but its first response (see
// `MessageService.afterMessage`).
//
// Posts to one project wait while batches of that project are being written on this node (one on
// the embedded database, two on PostgreSQL), and the next batch takes all of them (group commit):
// one statement locks their requests (in id order), decides each post on its locked row, inserts
// the messages and appends their `message.create` events (taking the project's sequence lock once,
// last). A teammate's first answer sets the request's first_response_at and waiting_time and logs
// its `request.update` in the same statement: in a busy team nearly every answer is the first in
// its conversation, and as a transaction of its own (ten-odd statements) each held a connection the
// batch would have shared. Under load that is one statement, one commit and one sequence lock for
// many posts instead of one each; alone, a post is written at once, as before. A post whose request
// is missing or whose conditions fail writes nothing and comes back with the reason
// (`FallbackReason`): `MessageService.post` then takes the general path, which creates the request,
// answers the error or applies the change. The row, the events, the conditions and what a first
// response sets are those of `rules.ts`, which the general path uses too.

/** A post as the batch takes it: the draft's content fields (the client's `createdAt` when it gave one), and who posts. */
export type BatchedPost = Pick<MessageDraft, 'requestId' | 'text' | 'type' | 'metadata' | 'attributes' | 'hidden' | 'createdAt'> & { actor: Actor };

export interface BatchWritten {
  written: true;
  message: Message;
  /** The request as the post left it (its first response set, when it was one). */
  request: Request;
  relations: RequestRelations;
  /** Its `message.create`. */
  event: LoggedEvent;
  /** The `request.update` of a first response, logged right after it; null for any other post. */
  responded: LoggedEvent | null;
}

/** A post the batch left to the general path, and why. */
export interface BatchFallback {
  written: false;
  reason: FallbackReason;
  error?: unknown;
}

export type BatchOutcome = BatchWritten | BatchFallback;

interface Waiting extends BatchedPost {
  /** The HTTP request that posts it, if any: its write is made by the batch, in another's name. */
  progress: RequestProgress | undefined;
  resolve(outcome: BatchOutcome): void;
  reject(error: unknown): void;
}

/** At most this many posts per statement; more wait for the next one. */
const maxBatch = 100;

// The statement answers, per post whose request exists, one JSON text: the request row, the
// message and the event it wrote (null when it wrote none) and what the request points to. One
// value per post parses in one go, where a column per field would be converted one by one; and
// the shape of a prepared statement's result stays the same when a migration adds a column. JSON
// (`row_to_json`, `json_build_object`), not JSONB: written out as it is built, where JSONB would
// be built, its keys sorted, and then written out (a sixth of the statement's database CPU).
interface WrittenJson {
  fallback: (typeof batchFallbacks)[number][0] | null;
  /** The locked (or updated) row with the batch's own columns (`item`, `fallback`, `responds`), dropped on reading. */
  request: Json<Request> & { item?: number; fallback?: unknown; responds?: unknown };
  message: Json<Message> | null;
  event: EventJson | null;
  responded: EventJson | null;
  relations: RelationRow;
}

type EventJson = { id: string; id_project: string; seq: number; name: string; subject: string; payload: Record<string, unknown>; createdAt: string };

/** A row as `row_to_json` writes it: timestamps (UTC, no zone) are text. */
type Json<T> = { [K in keyof T]: NonNullable<T[K]> extends Date ? string | Extract<T[K], null> : T[K] };

/**
 * Per post, on its locked request `r` and its input row `x`: the first of `batchFallbacks` that
 * holds (the reason the general path takes it), or NULL when the batch writes it. The author comes
 * as SQL values of the row, so one statement text serves every batch.
 */
const author = batchParams({ kind: Prisma.sql`x."kind"`, teammateId: Prisma.sql`x."teammate"`, userId: Prisma.sql`x."user"` });
const fallback = Prisma.sql`CASE ${Prisma.join(
  batchFallbacks.map(([reason, condition]) => Prisma.sql`WHEN ${conditionSql(condition, author)} THEN ${Prisma.raw(`'${reason}'`)}`),
  ' ',
)} END`;
/** Whether the post would be its request's first response, on the row as locked (before the batch). */
const responds = conditionSql(isFirstResponse, author);

// A first response's `request.update`: the event of rules.ts, its values read from the updated row
// `u`, its payload written out as JSONB (the general path's is stored as JSONB too).
const respondedEvent = firstResponded<Prisma.Sql>({
  id: Prisma.sql`u."id"`,
  id_project: Prisma.sql`u."id_project"`,
  request_id: Prisma.sql`u."request_id"`,
  status: Prisma.sql`u."status"`,
});
const respondedPayload = Prisma.sql`jsonb_build_object(${Prisma.join(
  Object.entries(respondedEvent.payload).map(
    ([key, v]) => Prisma.sql`${Prisma.raw(`'${key}'`)}, ${v instanceof Prisma.Sql ? v : Prisma.sql`${JSON.stringify(v)}::jsonb`}`,
  ),
)})`;
const respondedSet = Prisma.join(
  Object.entries(firstResponseSql(Prisma.sql`f."answered_at"`, Prisma.sql`f."requester_first_at"`)).map(
    ([name, v]) => Prisma.sql`${Prisma.raw(`"${name}"`)} = ${v}`,
  ),
);

// The batch's input rows: each post's message row (rules.ts), its id and place, and who posts.
const inputColumns = { i: 'int', id: 'text', ...messageRowColumns, kind: 'text', teammate: 'text', user: 'text', responded_event: 'text' } as const;
const inputRecord = Prisma.raw(Object.entries(inputColumns).map(([name, type]) => `"${name}" ${type}`).join(', '));
const messageColumns = ['id', ...Object.keys(messageRowColumns)];
const insertColumns = Prisma.raw(messageColumns.map((name) => `"${name}"`).join(', '));
const insertValues = Prisma.raw(messageColumns.map((name) => `x."${name}"`).join(', '));
// The rows' own columns, not their generated search vectors: those are the search's, and `row_to_json`
// would write each out as text only for it to be dropped.
const requestFields = Prisma.raw(Object.values(Prisma.RequestScalarFieldEnum).map((name) => `r."${name}"`).join(', '));
const messageFields = Prisma.raw(Object.values(Prisma.MessageScalarFieldEnum).map((name) => `"${name}"`).join(', '));

/**
 * The batch's statement. Besides the messages and their events: `"responding"` is, per request, the
 * first written post that `isFirstResponse` holds for (on the row as locked: a later post of the
 * batch answers a request the first has answered), with the requester's first message, stored or
 * written by the batch up to that post (as the general path, writing one post after the other,
 * sees it); `"responded"` sets its fields. Each post's `message.create` is appended at place 2i and
 * a first response's `request.update` at 2i + 1, right after it. A post shows its request as the
 * batch left it up to that post: updated from the first response on.
 */
function statement(projectId: string, posts: Waiting[], now: Date) {
  const rows = posts.map((post, k) => {
    const author = authorParams(post.actor);
    const row = messageRow({
      projectId,
      requestId: post.requestId,
      sender: post.actor.userId,
      senderFullname: post.actor.fullname,
      createdBy: post.actor.userId,
      text: post.text,
      type: post.type,
      metadata: post.metadata,
      attributes: post.attributes,
      hidden: post.hidden,
    });
    return {
      ...row,
      metadata: row.metadata ?? null,
      createdAt: (post.createdAt ?? now).toISOString(),
      i: k + 1,
      id: cuid(),
      kind: author.kind,
      teammate: author.teammateId,
      user: author.userId,
      // The id of its `request.update`, should it be a first response.
      responded_event: cuid(),
    };
  });
  const events = rows.map((row) => pendingEvent(messageCreated(row), now));
  return Prisma.sql`${Prisma.raw(prepared)}
    WITH "input" AS MATERIALIZED (
      SELECT * FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS x(${inputRecord})),
    "request" AS (
      SELECT ${requestFields}, x."i" AS "item", ${fallback} AS "fallback", ${responds} AS "responds"
      FROM "input" x JOIN "Request" r ON r."id_project" = ${projectId} AND r."request_id" = x."request_id"
      ORDER BY r."id", x."i"
      FOR UPDATE OF r),
    "message" AS (
      INSERT INTO "Message" (${insertColumns}, "updatedAt")
      SELECT ${insertValues}, ${now}::timestamp(3)
      FROM "request" q JOIN "input" x ON x."i" = q."item"
      WHERE q."fallback" IS NULL AND EXISTS (SELECT 1 FROM "Project" WHERE "id" = ${projectId})
      ORDER BY x."i"
      RETURNING ${messageFields}),
    "responding" AS (
      SELECT DISTINCT ON (r."id") r."id", r."item", x."createdAt" AS "answered_at", (
          SELECT min(w."createdAt") FROM (
            SELECT m."createdAt", m."createdBy" FROM "Message" m
            WHERE m."id_project" = ${projectId} AND m."request_id" = r."request_id"
            UNION ALL
            SELECT m."createdAt", m."createdBy" FROM "message" m JOIN "input" y ON y."id" = m."id"
            WHERE m."request_id" = r."request_id" AND y."i" <= r."item") w
          WHERE w."createdBy" = ${requesterUserSql}) AS "requester_first_at"
      FROM "request" r JOIN "input" x ON x."i" = r."item"
      WHERE r."responds" AND x."id" IN (SELECT "id" FROM "message")
      ORDER BY r."id", r."item"),
    "responded" AS (
      UPDATE "Request" r SET ${respondedSet}, "v" = r."v" + 1, "updatedAt" = ${now}::timestamp(3)
      FROM "responding" f WHERE r."id" = f."id"
      RETURNING ${requestFields}, f."item"),
    ${appendEventRowsSql(
      projectId,
      Prisma.sql`SELECT x."i" * 2 AS "i", x."id", x."name", x."subject", x."payload", x."createdAt"
        FROM (${eventRowsSql(events)}) x WHERE x."subject" IN (SELECT "id" FROM "message")
        UNION ALL
        SELECT u."item" * 2 + 1, y."responded_event", ${Prisma.raw(`'${respondedEvent.name}'`)}::text, ${respondedEvent.subject},
          ${respondedPayload}, ${now}::timestamp(3)
        FROM "responded" u JOIN "input" y ON y."i" = u."item"`,
    )}
    SELECT r."item", json_build_object('fallback', r."fallback",
        'request', CASE WHEN u."id" IS NULL THEN row_to_json(r) ELSE row_to_json(u) END,
        'message', row_to_json(m), 'event', row_to_json(e), 'responded', row_to_json(ue),
        'relations', ${relationObject})::text AS "written"
    FROM "request" r JOIN "input" x ON x."i" = r."item"
      LEFT JOIN "message" m ON m."id" = x."id" LEFT JOIN "appended" e ON e."subject" = x."id"
      LEFT JOIN "responded" u ON u."id" = r."id" AND u."item" <= r."item"
      LEFT JOIN "appended" ue ON ue."id" = x."responded_event"`;
}

function loggedEvent(event: EventJson): LoggedEvent {
  return {
    id: event.id,
    projectId: event.id_project,
    seq: Number(event.seq),
    name: event.name as LoggedEvent['name'],
    subject: event.subject,
    payload: event.payload ?? {},
    createdAt: fromJsonTimestamp(event.createdAt).toISOString(),
  };
}

export class PostBatcher {
  /** Per project: the posts waiting for a batch, the batches being written, and whether one is about to start. */
  private queues = new Map<string, { waiting: Waiting[]; writing: number; starting: boolean }>();
  /**
   * Batches of one project written at once: on PostgreSQL two, so that one is being decided and
   * inserted while the other commits (they meet only on the requests they share, locked in id
   * order, and on the project's sequence lock, taken last); on the embedded database, which runs
   * one statement at a time, one.
   */
  private lanes: number;

  /** `beforePublish` runs for each written post before its event is published (to prime caches). */
  constructor(
    private db: Db,
    private events: EventLog,
    private beforePublish: (written: BatchWritten) => void,
  ) {
    this.lanes = runsConcurrently(db) ? 2 : 1;
  }

  /** Writes the post with others of its project, or answers why the general path must take it (nothing written). */
  post(projectId: string, post: BatchedPost): Promise<BatchOutcome> {
    return new Promise((resolve, reject) => {
      // A post inside a request's own transaction (an Idempotency-Key) is written in it, alone:
      // another request's posts must not commit (or roll back) with it.
      if (inRequestTransaction()) {
        void this.write(projectId, [{ ...post, progress: requestInProgress(), resolve, reject }]);
        return;
      }
      let queue = this.queues.get(projectId);
      if (!queue) this.queues.set(projectId, (queue = { waiting: [], writing: 0, starting: false }));
      queue.waiting.push({ ...post, progress: requestInProgress(), resolve, reject });
      if (queue.starting || queue.writing >= this.lanes) return;
      // The batch starts after the requests already received are read: they join it. (An embedded
      // database runs its statements on this thread, so a batch started at once would block the
      // reading of the others, and every post would be written alone.)
      queue.starting = true;
      const started = queue;
      setImmediate(() => {
        started.starting = false;
        void this.run(projectId, started);
      });
    });
  }

  /** Writes the project's waiting posts, a batch at a time, until none is left. */
  private async run(projectId: string, queue: { waiting: Waiting[]; writing: number; starting: boolean }) {
    queue.writing++;
    try {
      while (queue.waiting.length) await this.write(projectId, queue.waiting.splice(0, maxBatch));
    } finally {
      queue.writing--;
      if (!queue.writing && !queue.starting && !queue.waiting.length) this.queues.delete(projectId);
    }
  }

  /** One batch: settles every post of it, never throws. */
  private async write(projectId: string, batch: Waiting[]) {
    let rows: Array<{ item: number; written: string }>;
    try {
      rows = await queryRows<{ item: number; written: string }>(this.db, statement(projectId, batch, new Date()));
    } catch (error) {
      // The statement wrote nothing (a deadlock, a serialisation failure, or one post the database
      // refused): the general path takes each post on its own, retrying or answering its error.
      for (const post of batch) post.resolve({ written: false, reason: 'statement_failed', error });
      return;
    }
    // Each post's request has written (committed) now, though its own code held no connection: what
    // it reads next to answer waits its turn rather than being refused (connection-admission.ts).
    for (const post of batch) if (post.progress) post.progress.begun = true;
    const written = new Map<number, BatchOutcome>();
    try {
      for (const row of rows) {
        const { fallback, request: locked, message, event, responded, relations } = JSON.parse(row.written) as WrittenJson;
        const { item: _item, fallback: _fallback, responds: _responds, ...request } = locked;
        if (!message) {
          written.set(row.item, { written: false, reason: fallback ?? 'not_written' });
          continue;
        }
        if (!event) throw new Error(`event log: no project ${projectId} to append message.create to`);
        const post: BatchWritten = {
          written: true,
          message: withJsonDates<Message>(message, messageDates),
          request: withJsonDates<Request>(request, requestDates),
          relations: relationsFromRow(relations),
          event: loggedEvent(event),
          responded: responded && loggedEvent(responded),
        };
        this.beforePublish(post);
        written.set(row.item, post);
      }
      // Published in sequence order, as one commit's events are.
      const events = [...written.values()].flatMap((w) => (!w.written ? [] : w.responded ? [w.event, w.responded] : [w.event]));
      await this.events.committed(events.sort((a, b) => a.seq - b.seq));
    } catch (error) {
      // Written, but not published: as with any commit whose publishing fails, the caller hears it.
      for (const post of batch) post.reject(error);
      return;
    }
    batch.forEach((post, k) => post.resolve(written.get(k + 1) ?? { written: false, reason: 'no_request' }));
  }
}
