import { Prisma } from '../generated/prisma/client.js';
import type { Db } from './database.js';
import { cuid } from './ids.js';
import type { Logger } from './logger.js';
import { inOneTransaction } from './request-transaction.js';

// The IdempotencyKey table: a POST's answer kept under the caller's key, so a retry gets it again
// instead of running the write twice. The claim, the request's writes and its answer commit in one
// transaction (request-transaction.ts), so no crash can leave a key claimed without its answer or
// a write without its key; two requests with the same key cannot both run (the second waits on
// the first's uncommitted claim).

/** Whose key it is: the caller, in a project ("" for paths under none). */
export interface KeyScope {
  caller: string;
  projectId: string;
  key: string;
}

/** What a key stands for: one request, by method, path and body. */
export interface RequestFingerprint {
  /** `POST /v3/...?query`. */
  request: string;
  bodyHash: string;
}

export interface StoredAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** What became of a keyed request. */
export type Keyed<R> =
  /** The key was this request's: it ran, and its answer is kept (or, when not final, nothing of it is). */
  | { kind: 'ran'; reply: R }
  /**
   * It ran and answered a success, but its transaction could not commit (a statement of it failed
   * and was caught): nothing of it was kept, and a retry runs it again.
   */
  | { kind: 'not-kept'; reply: R }
  | { kind: 'replay'; answer: StoredAnswer }
  /** The first request with this key has not answered yet. */
  | { kind: 'in-flight' }
  /** The key was used for another request: `differs` names what. */
  | { kind: 'mismatch'; differs: 'request' | 'body' };

export interface IdempotencyOptions {
  /** How long an answer is kept and replayed (24 h). */
  ttlMs?: number;
  /**
   * A key claimed but not answered, committed by a version that kept claims and answers apart, is
   * taken for dead after this long (5 min). Claims now commit with their answer only.
   */
  inFlightMs?: number;
  /** How long a retry waits for the first request with its key to commit before answering 409 (2 s). */
  inFlightWaitMs?: number;
  /** Longest a keyed request's transaction may stay open (2 min: longer than any request takes). */
  transactionMs?: number;
  /** How often this process deletes expired keys (10 min). */
  sweepEveryMs?: number;
}

type Row = { id: string; request: string; bodyHash: string; status: number | null; headers: unknown; body: string | null; createdAt: Date };

/** What a live key answers a request: its answer again, or why not. */
function verdict<R>(row: Row, fingerprint: RequestFingerprint): Keyed<R> {
  if (row.request !== fingerprint.request) return { kind: 'mismatch', differs: 'request' };
  if (row.bodyHash !== fingerprint.bodyHash) return { kind: 'mismatch', differs: 'body' };
  if (row.status === null) return { kind: 'in-flight' };
  return { kind: 'replay', answer: { status: row.status, headers: (row.headers ?? {}) as Record<string, string>, body: row.body ?? '' } };
}

/** A time as the `timestamp(3)` columns hold it (UTC wall time), whatever the session's time zone. */
const timestamp = (at: number) => Prisma.sql`CAST(${new Date(at).toISOString()} AS timestamp(3))`;

export class IdempotencyKeys {
  private ttlMs: number;
  private inFlightMs: number;
  private sweepEveryMs: number;
  private inFlightWaitMs: number;
  private transactionMs: number;
  private nextSweep = 0;

  constructor(
    private db: Db,
    private logger: Logger,
    options: IdempotencyOptions = {},
  ) {
    this.ttlMs = options.ttlMs ?? 24 * 3600_000;
    this.inFlightMs = options.inFlightMs ?? 5 * 60_000;
    this.sweepEveryMs = options.sweepEveryMs ?? 10 * 60_000;
    this.inFlightWaitMs = options.inFlightWaitMs ?? 2000;
    this.transactionMs = options.transactionMs ?? 120_000;
  }

  /**
   * Runs `run` under the key, exactly once: the key's claim, everything `run` writes and the answer
   * `keep` picks from its reply (null: not final, keep nothing) commit in one transaction. A process
   * killed at any instant before that commit leaves no trace, and a retry runs the request again;
   * after it, a retry gets the kept answer. A retry arriving while the first has not committed waits
   * for it (up to `inFlightWaitMs`, then `in-flight`).
   */
  async once<R>(scope: KeyScope, fingerprint: RequestFingerprint, run: () => Promise<R>, keep: (reply: R) => StoredAnswer | null): Promise<Keyed<R>> {
    this.sweepIfDue();
    // A key answered already is answered without opening a transaction.
    const found = await this.find(this.db, scope);
    if (found && found.status !== null && found.createdAt.getTime() >= Date.now() - this.ttlMs) return verdict(found, fingerprint);
    try {
      return await inOneTransaction<Keyed<R>>(
        this.db,
        async (tx) => {
          await tx.$executeRawUnsafe(`SET LOCAL lock_timeout = ${Math.max(1, Math.round(this.inFlightWaitMs))}`);
          const now = Date.now();
          // A new key, or one expired or abandoned, becomes this request's; a live one is left as it
          // is. A claim not committed yet (the first request still runs) makes this statement wait.
          const taken = await tx.$queryRaw<Array<{ id: string }>>`
            INSERT INTO "IdempotencyKey" ("id", "key", "caller", "id_project", "request", "bodyHash", "createdAt")
            VALUES (${cuid()}, ${scope.key}, ${scope.caller}, ${scope.projectId}, ${fingerprint.request}, ${fingerprint.bodyHash}, ${timestamp(now)})
            ON CONFLICT ("caller", "id_project", "key") DO UPDATE SET
              "id" = EXCLUDED."id", "request" = EXCLUDED."request", "bodyHash" = EXCLUDED."bodyHash",
              "status" = NULL, "headers" = NULL, "body" = NULL, "createdAt" = EXCLUDED."createdAt"
            WHERE "IdempotencyKey"."createdAt" < ${timestamp(now - this.ttlMs)}
              OR ("IdempotencyKey"."status" IS NULL AND "IdempotencyKey"."createdAt" < ${timestamp(now - this.inFlightMs)})
            RETURNING "id"`;
          if (!taken.length) {
            const row = await this.find(tx, scope);
            return { commit: false, value: row ? verdict(row, fingerprint) : { kind: 'in-flight' } };
          }
          const reply = await run();
          const answer = keep(reply);
          if (!answer) return { commit: false, value: { kind: 'ran', reply } };
          try {
            await tx.$executeRaw`
              UPDATE "IdempotencyKey" SET "status" = ${answer.status}, "headers" = ${JSON.stringify(answer.headers)}::jsonb, "body" = ${answer.body}
              WHERE "id" = ${taken[0].id}`;
          } catch (error) {
            // A statement of the request failed and was caught (the transaction is aborted): none of
            // it commits. An error answer stands (nothing was written); a success would not be true.
            this.logger.warn({ err: (error as Error).message }, 'a keyed request could not commit; nothing of it was kept');
            return { commit: false, value: answer.status >= 400 ? { kind: 'ran', reply } : { kind: 'not-kept', reply } };
          }
          return { commit: true, value: { kind: 'ran', reply } };
        },
        { timeoutMs: this.transactionMs },
      );
    } catch (error) {
      if (/lock timeout|55P03/i.test((error as Error).message ?? '')) return { kind: 'in-flight' };
      throw error;
    }
  }

  private async find(db: Pick<Db, '$queryRaw'>, scope: KeyScope): Promise<Row | undefined> {
    const [row] = await db.$queryRaw<Row[]>`
      SELECT "id", "request", "bodyHash", "status", "headers", "body", "createdAt" FROM "IdempotencyKey"
      WHERE "caller" = ${scope.caller} AND "id_project" = ${scope.projectId} AND "key" = ${scope.key}`;
    return row;
  }

  /** Expired keys are deleted now and then, by whichever node is serving keyed requests. */
  private sweepIfDue() {
    const now = Date.now();
    if (now < this.nextSweep) return;
    this.nextSweep = now + this.sweepEveryMs;
    this.db.$executeRaw`DELETE FROM "IdempotencyKey" WHERE "createdAt" < ${timestamp(now - this.ttlMs)}`.then(
      (deleted) => deleted && this.logger.debug({ deleted }, 'expired idempotency keys deleted'),
      (error: unknown) => this.logger.warn({ err: (error as Error).message }, 'could not delete expired idempotency keys'),
    );
  }
}
