import { Prisma } from '../generated/prisma/client.js';
import type { Db } from './database.js';
import { cuid } from './ids.js';
import type { Logger } from './logger.js';

// The IdempotencyKey table: a POST's answer kept under the caller's key, so a retry gets it again
// instead of running the write twice. Claiming a key is one statement, so two requests with the
// same key cannot both run: the second finds it in flight (or answered).

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

export type Claim =
  /** The key is this request's: run it, then `settle` or `release`. */
  | { kind: 'run'; id: string }
  | { kind: 'replay'; answer: StoredAnswer }
  /** The first request with this key has not answered yet. */
  | { kind: 'in-flight' }
  /** The key was used for another request: `differs` names what. */
  | { kind: 'mismatch'; differs: 'request' | 'body' };

export interface IdempotencyOptions {
  /** How long an answer is kept and replayed (24 h). */
  ttlMs?: number;
  /**
   * A first request that has not answered after this long is taken for dead (its process stopped):
   * a retry then runs again (5 min: longer than any request takes).
   */
  inFlightMs?: number;
  /** How often this process deletes expired keys (10 min). */
  sweepEveryMs?: number;
}

type Row = { id: string; request: string; bodyHash: string; status: number | null; headers: unknown; body: string | null };

/** A time as the `timestamp(3)` columns hold it (UTC wall time), whatever the session's time zone. */
const timestamp = (at: number) => Prisma.sql`CAST(${new Date(at).toISOString()} AS timestamp(3))`;

export class IdempotencyKeys {
  private ttlMs: number;
  private inFlightMs: number;
  private sweepEveryMs: number;
  private nextSweep = 0;

  constructor(
    private db: Db,
    private logger: Logger,
    options: IdempotencyOptions = {},
  ) {
    this.ttlMs = options.ttlMs ?? 24 * 3600_000;
    this.inFlightMs = options.inFlightMs ?? 5 * 60_000;
    this.sweepEveryMs = options.sweepEveryMs ?? 10 * 60_000;
  }

  async claim(scope: KeyScope, fingerprint: RequestFingerprint): Promise<Claim> {
    this.sweepIfDue();
    for (let attempt = 0; attempt < 3; attempt++) {
      const now = Date.now();
      // A new key, or one expired or abandoned, becomes this request's; a live one is left as it is.
      const taken = await this.db.$queryRaw<Array<{ id: string }>>`
        INSERT INTO "IdempotencyKey" ("id", "key", "caller", "id_project", "request", "bodyHash", "createdAt")
        VALUES (${cuid()}, ${scope.key}, ${scope.caller}, ${scope.projectId}, ${fingerprint.request}, ${fingerprint.bodyHash}, ${timestamp(now)})
        ON CONFLICT ("caller", "id_project", "key") DO UPDATE SET
          "id" = EXCLUDED."id", "request" = EXCLUDED."request", "bodyHash" = EXCLUDED."bodyHash",
          "status" = NULL, "headers" = NULL, "body" = NULL, "createdAt" = EXCLUDED."createdAt"
        WHERE "IdempotencyKey"."createdAt" < ${timestamp(now - this.ttlMs)}
          OR ("IdempotencyKey"."status" IS NULL AND "IdempotencyKey"."createdAt" < ${timestamp(now - this.inFlightMs)})
        RETURNING "id"`;
      if (taken.length) return { kind: 'run', id: taken[0].id };
      const [row] = await this.db.$queryRaw<Row[]>`
        SELECT "id", "request", "bodyHash", "status", "headers", "body" FROM "IdempotencyKey"
        WHERE "caller" = ${scope.caller} AND "id_project" = ${scope.projectId} AND "key" = ${scope.key}`;
      // Released (the first request failed) between the two statements: claim it again.
      if (!row) continue;
      if (row.request !== fingerprint.request) return { kind: 'mismatch', differs: 'request' };
      if (row.bodyHash !== fingerprint.bodyHash) return { kind: 'mismatch', differs: 'body' };
      if (row.status === null) return { kind: 'in-flight' };
      return { kind: 'replay', answer: { status: row.status, headers: (row.headers ?? {}) as Record<string, string>, body: row.body ?? '' } };
    }
    return { kind: 'in-flight' };
  }

  /** Keeps the answer of the request that claimed the key. */
  async settle(id: string, answer: StoredAnswer) {
    await this.db.$executeRaw`
      UPDATE "IdempotencyKey" SET "status" = ${answer.status}, "headers" = ${JSON.stringify(answer.headers)}::jsonb, "body" = ${answer.body}
      WHERE "id" = ${id}`;
  }

  /** Frees the key: the request failed in a way a retry may not (a 5xx, a 429). */
  async release(id: string) {
    await this.db.$executeRaw`DELETE FROM "IdempotencyKey" WHERE "id" = ${id} AND "status" IS NULL`;
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
