import { z } from 'zod';
import { badInput, parseInput } from '../../errors.js';
import { Prisma, type Request } from '../../generated/prisma/client.js';
import type { Db } from '../../infra/database.js';
import { listingInput } from '../../paging.js';
import { scopeCondition, type Scope } from './access.js';
import { RequestStatus } from './states.js';

// GET /requests: every filter of the spec as one SQL query over `Request r`.

const sortFields = [
  'createdAt',
  'updatedAt',
  'ticket_id',
  'status',
  'priority',
  'rating',
  'waiting_time',
  'assigned_at',
  'first_response_at',
  'closed_at',
  'last_activity',
  'waiting_since',
] as const;

/**
 * Orders kept on the request by triggers on its messages (migration 20261129120000), each read
 * through a partial index over the open requests:
 * - `last_activity`: the newest message, or the creation of a request without any;
 * - `waiting_since`: the requester's oldest message that nobody has answered since (null, so
 *   last in either direction, when the last word is not the requester's): `direction=1` puts
 *   whoever has waited longest first.
 */
const computedOrders: Partial<Record<(typeof sortFields)[number], Prisma.Sql>> = {
  last_activity: Prisma.sql`COALESCE(r."last_activity_at", r."createdAt")`,
  priority: Prisma.sql`(CASE r."priority" WHEN 'urgent' THEN 4 WHEN 'hight' THEN 3 WHEN 'normal' THEN 2 WHEN 'low' THEN 1 END)`,
};

/** Sort columns that are never null (`NOT NULL` in the schema, or never null as computed). */
const notNullSorts = new Set<string>(['createdAt', 'updatedAt', 'ticket_id', 'status', 'last_activity'] satisfies Array<(typeof sortFields)[number]>);

/** Tiledesk's values, most pressing first: sorting by priority descending puts `urgent` first. */
export const priorityRanks = { urgent: 4, hight: 3, normal: 2, low: 1 } as const;
const priorityNames = Object.keys(priorityRanks) as Array<keyof typeof priorityRanks>;

const channels = ['chat21', 'email', 'form', 'whatsapp', 'telegram', 'messenger'] as const;

const ddmmyyyy = z
  .string()
  .regex(/^\d{2}\/\d{2}\/\d{4}$/, 'must be a date as DD/MM/YYYY')
  .transform((value, ctx) => {
    const [d, m, y] = value.split('/').map(Number);
    const date = new Date(Date.UTC(y, m - 1, d));
    if (date.getUTCDate() !== d || date.getUTCMonth() !== m - 1) {
      ctx.addIssue({ code: 'custom', message: 'is not a calendar date' });
      return z.NEVER;
    }
    return date;
  });

const knownStatuses = Object.values(RequestStatus) as number[];

// Each value is a request state written in decimal digits ("1e2" or "0x64" are not 100).
const statusFilter = z
  .string()
  .trim()
  .transform((value, ctx) => {
    if (value === 'all') return 'all' as const;
    const tokens = value.split(',').map((s) => s.trim());
    if (tokens.some((token) => !/^\d{1,4}$/.test(token) || !knownStatuses.includes(Number(token)))) {
      ctx.addIssue({ code: 'custom', message: `must be all or a comma list of ${knownStatuses.join(', ')}` });
      return z.NEVER;
    }
    return tokens.map(Number);
  });

/** Ticket numbers are a 32-bit integer column: anything outside 1..2^31-1 matches no ticket and is refused. */
const maxTicket = 2 ** 31 - 1;
const ticketNumber = z
  .string()
  .trim()
  .regex(/^\d{1,10}$/, `must be a ticket number from 1 to ${maxTicket}`)
  .transform(Number)
  .refine((n) => n >= 1 && n <= maxTicket, `must be a ticket number from 1 to ${maxTicket}`);

const csv = z
  .string()
  .trim()
  .min(1)
  .transform((v) => v.split(',').map((s) => s.trim()).filter(Boolean));

export const listInput = listingInput(sortFields, 'createdAt').extend({
  full_text: z.string().trim().min(1).max(500).optional(),
  status: statusFilter.optional(),
  start_date: ddmmyyyy.optional(),
  end_date: ddmmyyyy.optional(),
  ticket_id: ticketNumber.optional(),
  dept_id: z.string().trim().min(1).optional(),
  lead: z.string().trim().min(1).optional(),
  assignee: z.string().trim().min(1).max(200).optional(),
  hasBot: z.boolean({ message: 'must be true or false' }).optional(),
  tags: csv.optional(),
  // The rating given (the satisfaction chart's bars count each value).
  rating: z.number({ message: 'must be a number from 0 to 5' }).min(0, 'must be a number from 0 to 5').max(5, 'must be a number from 0 to 5').optional(),
  // Conversations with at least one message on that day (UTC): the messages-per-day chart's bars.
  active_date: ddmmyyyy.optional(),
  // Repeated (`?priority=urgent&priority=hight`) or comma-separated: any of them.
  priority: z
    .array(z.string())
    .transform((values, ctx) => {
      const list = [...new Set(values.flatMap((v) => v.split(',')).map((v) => v.trim()).filter(Boolean))];
      const unknown = list.filter((v) => !(priorityNames as string[]).includes(v));
      if (unknown.length || !list.length) {
        ctx.addIssue({ code: 'custom', message: `must be one or more of ${priorityNames.join(', ')}` });
        return z.NEVER;
      }
      return list;
    })
    .optional(),
  channel: z.enum(channels, { message: `must be one of ${channels.join(', ')}` }).optional(),
  snap_lead_email: z.string().trim().min(1).optional(),
  snap_lead_lead_id: z.string().trim().min(1).optional(),
});

export interface RequestPage {
  perPage: number;
  count: number;
  requests: Request[];
}

/** `callerUserId`: who `assignee=me` is. */
export async function listRequests(db: Db, projectId: string, scope: Scope, input: unknown, callerUserId?: string): Promise<RequestPage> {
  const q = parseInput(listInput, input);
  if (q.start_date && q.end_date && q.end_date < q.start_date) throw badInput('end_date', 'end_date: is before start_date');

  // The status filter, on a table's "status" column (the requests', or their tally's).
  const statusOf = (column: Prisma.Sql) =>
    q.status === undefined
      ? Prisma.sql`${column} < ${RequestStatus.CLOSED}`
      : q.status === 'all'
        ? Prisma.sql`TRUE`
        : Prisma.sql`${column} IN (${Prisma.join(q.status)})`;
  const where: Prisma.Sql[] = [Prisma.sql`r."id_project" = ${projectId}`, scopeCondition(scope), statusOf(Prisma.sql`r."status"`)];
  /** The conditions above, which the kept tally can count (for a caller who sees every request). */
  const byStatusOnly = where.length;
  if (q.start_date) where.push(Prisma.sql`r."createdAt" >= ${q.start_date}`);
  // The end date is inclusive: everything before the next midnight.
  if (q.end_date) where.push(Prisma.sql`r."createdAt" < ${new Date(q.end_date.getTime() + 86_400_000)}`);
  if (q.ticket_id !== undefined) where.push(Prisma.sql`r."ticket_id" = ${q.ticket_id}`);
  if (q.dept_id) where.push(Prisma.sql`r."departmentId" = ${q.dept_id}`);
  if (q.lead) where.push(Prisma.sql`r."leadId" = ${q.lead}`);
  // A teammate's user id, `me` (the caller), or `none` (no human agent serves it).
  if (q.assignee === 'none') where.push(Prisma.sql`cardinality(r."participatingAgents") = 0`);
  else if (q.assignee) where.push(Prisma.sql`r."participatingAgents" @> ARRAY[${q.assignee === 'me' ? (callerUserId ?? '') : q.assignee}]::text[]`);
  if (q.hasBot !== undefined) where.push(Prisma.sql`r."hasBot" = ${q.hasBot}`);
  if (q.priority) where.push(Prisma.sql`r."priority" IN (${Prisma.join(q.priority)})`);
  if (q.rating !== undefined) where.push(Prisma.sql`r."rating" = ${q.rating}`);
  if (q.active_date) {
    // The day's messages through their (project, createdAt) index, not every request's messages.
    where.push(Prisma.sql`r."request_id" IN (
      SELECT m."request_id" FROM "Message" m
      WHERE m."id_project" = ${projectId} AND m."createdAt" >= ${q.active_date} AND m."createdAt" < ${new Date(q.active_date.getTime() + 86_400_000)})`);
  }
  if (q.channel) where.push(Prisma.sql`r."channelName" = ${q.channel}`);
  if (q.tags?.length) {
    const anyTag = q.tags.map((tag) => Prisma.sql`r."tags" @> ${JSON.stringify([{ tag }])}::jsonb`);
    where.push(Prisma.sql`(${Prisma.join(anyTag, ' OR ')})`);
  }
  if (q.snap_lead_email) where.push(Prisma.sql`lower(r."snapshot"->'lead'->>'email') = lower(${q.snap_lead_email})`);
  if (q.snap_lead_lead_id) where.push(Prisma.sql`r."snapshot"->'lead'->>'lead_id' = ${q.snap_lead_lead_id}`);
  if (q.full_text) {
    // Every word, on the English stems GET /search reads too (the GIN-indexed "search" column):
    // "refunds" finds a message saying "refund".
    where.push(Prisma.sql`EXISTS (
      SELECT 1 FROM "Message" m
      WHERE m."id_project" = r."id_project" AND m."request_id" = r."request_id"
        AND m."search" @@ plainto_tsquery('english', ${q.full_text}))`);
  }

  const condition = Prisma.join(where, ' AND ');
  const direction = q.direction === 1 ? Prisma.sql`ASC` : Prisma.sql`DESC`;
  // sortField is one of the names above, never client text.
  const order = computedOrders[q.sortField] ?? Prisma.raw(`r."${q.sortField}"`);
  // Nulls last, where a column can hold them. On a column that cannot, the clause would change no
  // order but keep PostgreSQL from reading an index in its order (a descending scan gives nulls
  // first): the newest 50 closed requests of 170,000 were sorted whole (371 ms), not read (9 ms).
  const nulls = notNullSorts.has(q.sortField) ? Prisma.empty : Prisma.sql`NULLS LAST`;
  const [ids, [{ count }]] = await Promise.all([
    db.$queryRaw<Array<{ id: string }>>`
      SELECT r."id" FROM "Request" r WHERE ${condition}
      ORDER BY ${order} ${direction} ${nulls}, r."id" ${direction}
      LIMIT ${q.limit} OFFSET ${q.page * q.limit}`,
    // A view by status alone, for a caller who sees every request (the inbox's All open and Closed
    // for admins), sums the tally kept per project and status (migration request_status_tally):
    // counting a year's closed requests was most of the view's time.
    scope.kind === 'all' && where.length === byStatusOnly
      ? db.$queryRaw<Array<{ count: number }>>`
          SELECT COALESCE(sum(t."requests"), 0)::int AS count FROM "RequestStatusTally" t
          WHERE t."id_project" = ${projectId} AND ${statusOf(Prisma.sql`t."status"`)}`
      : db.$queryRaw<Array<{ count: number }>>`SELECT count(*)::int AS count FROM "Request" r WHERE ${condition}`,
  ]);
  const rows = ids.length ? await db.request.findMany({ where: { id: { in: ids.map((r) => r.id) } } }) : [];
  const byId = new Map(rows.map((r) => [r.id, r]));
  return {
    perPage: q.limit,
    count,
    requests: ids.map((r) => byId.get(r.id)).filter((r): r is Request => !!r),
  };
}
