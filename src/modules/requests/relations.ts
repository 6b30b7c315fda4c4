import { perContext, type Context } from '../../context.js';
import { Prisma, type AssistantSummary, type Department, type Lead, type RequestSla } from '../../generated/prisma/client.js';
import { allDates, withJsonDates, type Db } from '../../infra/database.js';
import { userDates } from '../auth/account-read.js';
import { teammateDates } from '../teammates/read.js';
import type { TeammateRecord } from '../teammates/service.js';

// What request fields point to (department, lead, requester, agents): one query for all the
// requests an operation shows (a page, or the request embedded in a message), once per operation.

interface Pending<V> {
  key: string;
  resolve: (value: V | null) => void;
  reject: (error: unknown) => void;
}

/**
 * Calls made in the same tick are answered by one `fetch` of their distinct keys, once per key.
 * `remember: false` keeps no answer past its batch: for values that change while a context lives
 * (a subscription's context serves all of its events).
 */
export function batched<V>(fetch: (keys: string[]) => Promise<Map<string, V>>, { remember = true } = {}) {
  const cache = new Map<string, Promise<V | null>>();
  let queue: Pending<V>[] | null = null;
  const flush = (batch: Pending<V>[]) => {
    queue = null;
    if (!remember) cache.clear();
    fetch([...new Set(batch.map((b) => b.key))]).then(
      (found) => batch.forEach((b) => b.resolve(found.get(b.key) ?? null)),
      (error) => batch.forEach((b) => b.reject(error)),
    );
  };
  return (key: string): Promise<V | null> => {
    const cached = cache.get(key);
    if (cached) return cached;
    const promise = new Promise<V | null>((resolve, reject) => {
      if (!queue) {
        const batch: Pending<V>[] = [];
        queue = batch;
        // After the current resolvers have all asked (as DataLoader schedules its batches).
        void Promise.resolve().then(() => process.nextTick(() => flush(batch)));
      }
      queue.push({ key, resolve, reject });
    });
    cache.set(key, promise);
    return promise;
  };
}

// Each relation's timestamps (row_to_json writes them as UTC text without a zone), checked by the
// compiler against its model (`allDates`).
const departmentDates = allDates<Department>()(['createdAt', 'updatedAt']);
const leadDates = allDates<Lead>()(['createdAt', 'updatedAt']);
const summaryDates = allDates<AssistantSummary>()(['createdAt', 'updatedAt']);
const slaDates = allDates<RequestSla>()(['firstResponseDueAt', 'nextResponseDueAt', 'resolutionDueAt', 'updatedAt']);

/** A relation as `row_to_json` wrote it (parsed), with its timestamps as Dates again; null stays null. */
const withDates = <T>(row: object | null, dateFields: readonly string[]): T | null => (row ? withJsonDates<T>(row, dateFields) : null);

const teammate = (row: (Record<string, unknown> & { user: object }) | null) =>
  row && { ...withJsonDates<object>(row, teammateDates), user: withJsonDates<object>(row.user, userDates) };

export interface RequestRelations {
  department: Department | null;
  lead: Lead | null;
  requester: TeammateRecord | null;
  agents: TeammateRecord[];
  /** The assistant's latest summary of the request (src/modules/assistant), if any. */
  summary: AssistantSummary | null;
  /** The request's SLA row (src/modules/sla), if any. */
  sla: RequestSla | null;
}

/** Teammate with its user, as JSON (no password). */
const teammateJson = Prisma.sql`json_build_object(${Prisma.raw(
  Object.values(Prisma.ProjectUserScalarFieldEnum)
    .map((name) => `'${name}', pu."${name}"`)
    .join(', '),
)}, 'user', json_build_object(
  'id', u."id", 'email', u."email", 'firstname', u."firstname", 'lastname', u."lastname", 'emailverified', u."emailverified",
  'anonymous', u."anonymous", 'createdAt', u."createdAt", 'updatedAt', u."updatedAt", 'v', u."v"))`;

/** What `relationColumns` select: the related rows as JSON. */
export interface RelationRow {
  department: Department | null;
  lead: Lead | null;
  requester: unknown;
  agents: unknown[];
  summary: AssistantSummary | null;
  sla: RequestSla | null;
}

// Everything a request points to, each as JSON, from the Request row `r`; only ever from its own
// project, whatever an identifier says.
const relationValues = {
  department: Prisma.sql`(SELECT row_to_json(d) FROM "Department" d WHERE d."id" = r."departmentId" AND d."id_project" = r."id_project")`,
  lead: Prisma.sql`(SELECT row_to_json(l) FROM "Lead" l WHERE l."id" = r."leadId" AND l."id_project" = r."id_project")`,
  requester: Prisma.sql`(SELECT ${teammateJson} FROM "ProjectUser" pu JOIN "User" u ON u."id" = pu."id_user" WHERE pu."id" = r."requester_id" AND pu."id_project" = r."id_project")`,
  agents: Prisma.sql`(SELECT COALESCE(json_agg(${teammateJson} ORDER BY array_position(r."participatingAgents", pu."id_user")), '[]'::json)
     FROM "ProjectUser" pu JOIN "User" u ON u."id" = pu."id_user"
     WHERE pu."id_project" = r."id_project" AND pu."id_user" = ANY(r."participatingAgents"))`,
  // Rows kept per request by other modules, read with the rest: a posted message's answer (its
  // request's summary and SLA) cost two statements more per post, a third of the posts a second
  // (issue 39: 34% -> 21% of the bare baseline on the commit that added the summary).
  summary: Prisma.sql`(SELECT row_to_json(s) FROM "AssistantSummary" s WHERE s."id_project" = r."id_project" AND s."request_id" = r."request_id")`,
  sla: Prisma.sql`(SELECT row_to_json(s) FROM "RequestSla" s WHERE s."id_project" = r."id_project" AND s."request_id" = r."request_id")`,
} satisfies Record<keyof RelationRow, Prisma.Sql>;

/**
 * Everything a request points to, as columns (`department`, `lead`, `requester`, `agents`, `summary`, `sla`) of a
 * query over the Request row `r`: the loader's query.
 */
const relationColumns = Prisma.join(
  Object.entries(relationValues).map(([name, value]) => Prisma.sql`${value} AS ${Prisma.raw(name)}`),
);

/**
 * The same as one JSON object (a `RelationRow`), for statements that answer a request as JSON
 * together with what they wrote (see `knowRelations`).
 */
export const relationObject = Prisma.sql`json_build_object(${Prisma.join(
  Object.entries(relationValues).map(([name, value]) => Prisma.sql`${Prisma.raw(`'${name}'`)}, ${value}`),
)})`;

export function relationsFromRow(row: RelationRow): RequestRelations {
  return {
    department: withDates<Department>(row.department, departmentDates),
    lead: withDates<Lead>(row.lead, leadDates),
    requester: teammate(row.requester as Parameters<typeof teammate>[0]) as TeammateRecord | null,
    agents: row.agents.map((a) => teammate(a as Parameters<typeof teammate>[0]) as TeammateRecord),
    summary: withDates<AssistantSummary>(row.summary, summaryDates),
    sla: withDates<RequestSla>(row.sla, slaDates),
  };
}

/** Relations read together with a request row (by the statement that returned it), keyed by that row. */
const known = new WeakMap<object, RequestRelations>();

/** Records what `request` (a row about to be answered) points to, so answering it reads nothing more. */
export function knowRelations(request: object, relations: RequestRelations) {
  known.set(request, relations);
}

/** What a request row points to: known with the row, or loaded with the operation's other requests. */
export function relationsFor(ctx: Context, request: { id: string }): RequestRelations | Promise<RequestRelations | null> {
  return known.get(request) ?? relationsOf(ctx).of(request.id);
}

function relations(db: Db) {
  return {
    /** Everything a request points to, one query for all the requests of an operation. */
    of: batched<RequestRelations>(async (ids) => {
      const rows = await db.$queryRaw<Array<{ id: string } & RelationRow>>`
        SELECT r."id", ${relationColumns} FROM "Request" r WHERE r."id" IN (${Prisma.join(ids)})`;
      return new Map(rows.map((r) => [r.id, relationsFromRow(r)]));
    }),
    /** Keyed `<projectId> <request_id>`. */
    request: batched(async (keys) => {
      const pairs = keys.map((k) => k.split(' ') as [string, string]);
      const rows = await db.request.findMany({
        where: { OR: pairs.map(([id_project, request_id]) => ({ id_project, request_id })) },
      });
      return new Map(rows.map((r) => [`${r.id_project} ${r.request_id}`, r]));
    }),
  };
}

/** The operation's relation loaders: requests of one operation are loaded together. */
export const relationsOf = perContext((ctx) => relations(ctx.services.infra.database.prisma));
