import { Prisma } from '../../generated/prisma/client.js';
import type { Db } from '../../infra/database.js';
import { RequestStatus } from '../requests/states.js';

// Analytics over the last 30 days (UTC), each figure one SQL aggregate. Durations are in
// milliseconds; series list every day, week, month or hour of the window, zeros included
// (the first week or month only counts what falls inside the window).

const windowDays = 30;
const day = 86_400_000;

export interface Average {
  average: number | null;
  count: number;
}
export interface Duration extends Average {
  median: number | null;
}
export interface StatusCounts {
  assigned: number;
  unassigned: number;
  archived: number;
}
export interface MessageCounts {
  count: number;
  sent: number;
  received: number;
}
export interface AgentResponse {
  /** The teammate's user id. */
  id_user: string;
  fullname: string | null;
  average: number | null;
  median: number | null;
  count: number;
}
export type Series<K extends string> = Array<Record<K, string | number> & { count: number }>;

const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));
/** A UTC wall-clock timestamp, as the columns store it (they have no time zone). */
const utc = (date: Date) => date.toISOString().replace('T', ' ').replace('Z', '');

export class AnalyticsService {
  constructor(private db: Db) {}

  private since(days = windowDays, now = new Date()) {
    return new Date(now.getTime() - days * day);
  }

  /** Average waiting time (first visitor message to first agent message) of requests in the window. */
  async waitingTime(projectId: string, days = windowDays): Promise<Average> {
    const [row] = await this.db.$queryRaw<Array<{ average: number | null; count: number }>>`
      SELECT avg("waiting_time")::float8 AS average, count("waiting_time")::int AS count
      FROM "Request" WHERE "id_project" = ${projectId} AND "createdAt" >= ${this.since(days)}`;
    return { average: num(row.average), count: row.count };
  }

  async requestCount(projectId: string): Promise<{ count: number }> {
    return { count: await this.db.request.count({ where: { id_project: projectId, createdAt: { gte: this.since() } } }) };
  }

  /** assigned: SERVED; unassigned: not yet served (TEMPORARY, UNSERVED, ABANDONED); archived: CLOSED. */
  async byStatus(projectId: string): Promise<StatusCounts> {
    const [row] = await this.db.$queryRaw<Array<StatusCounts>>`
      SELECT count(*) FILTER (WHERE "status" = ${RequestStatus.SERVED})::int AS assigned,
             count(*) FILTER (WHERE "status" < ${RequestStatus.SERVED})::int AS unassigned,
             count(*) FILTER (WHERE "status" = ${RequestStatus.CLOSED})::int AS archived
      FROM "Request" WHERE "id_project" = ${projectId} AND "createdAt" >= ${this.since()}`;
    return row;
  }

  private series(table: 'Request' | 'Message', projectId: string, unit: 'day' | 'week' | 'month') {
    const format = { day: 'YYYY-MM-DD', week: 'YYYY-MM-DD', month: 'YYYY-MM' }[unit];
    const since = utc(this.since(windowDays - 1));
    return this.db.$queryRaw<Array<{ bucket: string; count: number }>>`
      WITH buckets AS (
        SELECT generate_series(date_trunc(${unit}, ${since}::timestamp), date_trunc(${unit}, now() AT TIME ZONE 'UTC'), ${`1 ${unit}`}::interval) AS bucket
      ), counted AS (
        SELECT date_trunc(${unit}, "createdAt") AS bucket, count(*)::int AS count
        FROM ${Prisma.raw(`"${table}"`)}
        WHERE "id_project" = ${projectId} AND "createdAt" >= ${since}::timestamp
        GROUP BY 1
      )
      SELECT to_char(b.bucket, ${format}) AS bucket, COALESCE(c.count, 0) AS count
      FROM buckets b LEFT JOIN counted c ON c.bucket = b.bucket ORDER BY b.bucket`;
  }

  /** Requests per day: `date` YYYY-MM-DD. */
  async requestsByDay(projectId: string) {
    return (await this.series('Request', projectId, 'day')).map((r) => ({ date: r.bucket, count: r.count }));
  }

  /** Requests per week: `week` is the Monday that starts it, YYYY-MM-DD. */
  async requestsByWeek(projectId: string) {
    return (await this.series('Request', projectId, 'week')).map((r) => ({ week: r.bucket, count: r.count }));
  }

  /** Requests per month: `month` YYYY-MM. */
  async requestsByMonth(projectId: string) {
    return (await this.series('Request', projectId, 'month')).map((r) => ({ month: r.bucket, count: r.count }));
  }

  /** Requests by hour of the day (0 to 23, UTC) over the window: when conversations start. */
  async requestsByHour(projectId: string) {
    return this.db.$queryRaw<Array<{ hour: number; count: number }>>`
      SELECT h.hour::int AS hour, COALESCE(c.count, 0)::int AS count
      FROM generate_series(0, 23) AS h(hour)
      LEFT JOIN (
        SELECT extract(hour FROM "createdAt")::int AS hour, count(*)::int AS count
        FROM "Request" WHERE "id_project" = ${projectId} AND "createdAt" >= ${this.since()}
        GROUP BY 1
      ) c ON c.hour = h.hour
      ORDER BY h.hour`;
  }

  /** Conversation length (creation to close) of requests closed in the window: average and median. */
  async duration(projectId: string): Promise<Duration> {
    const [row] = await this.db.$queryRaw<Array<{ average: number | null; median: number | null; count: number }>>`
      WITH closed AS (
        SELECT extract(epoch FROM ("closed_at" - "createdAt")) * 1000 AS ms
        FROM "Request" WHERE "id_project" = ${projectId} AND "closed_at" >= ${this.since()}
      )
      SELECT avg(ms)::float8 AS average, percentile_cont(0.5) WITHIN GROUP (ORDER BY ms)::float8 AS median, count(*)::int AS count
      FROM closed`;
    return { average: num(row.average), median: num(row.median), count: row.count };
  }

  /** Average rating (0 to 5) of the requests rated in the window. */
  async satisfaction(projectId: string): Promise<Average> {
    const [row] = await this.db.$queryRaw<Array<{ average: number | null; count: number }>>`
      SELECT avg("rating")::float8 AS average, count("rating")::int AS count
      FROM "Request" WHERE "id_project" = ${projectId} AND "createdAt" >= ${this.since()}`;
    return { average: num(row.average), count: row.count };
  }

  async botRequestCount(projectId: string): Promise<{ count: number }> {
    return {
      count: await this.db.request.count({ where: { id_project: projectId, hasBot: true, createdAt: { gte: this.since() } } }),
    };
  }

  /**
   * received: written by the requester (the visitor who opened the request); sent: by anyone else
   * (agents, bots). Whole hours of the window from the tally kept per project, hour and side by
   * triggers on "Message" (migration message_hourly_tally), the window's first, partial hour from
   * its messages: joining a year's window of messages to their requests took 0.7-1 s (issue 39).
   */
  async messageCount(projectId: string): Promise<MessageCounts> {
    const since = utc(this.since());
    const [row] = await this.db.$queryRaw<Array<MessageCounts>>`
      WITH "parts" AS (
        SELECT COALESCE(sum(t."messages") FILTER (WHERE NOT t."received"), 0) AS sent, COALESCE(sum(t."messages") FILTER (WHERE t."received"), 0) AS received
        FROM "MessageHourlyTally" t
        WHERE t."id_project" = ${projectId} AND t."hour" >= date_trunc('hour', ${since}::timestamp) + interval '1 hour'
        UNION ALL
        SELECT count(*) FILTER (WHERE m."sender" IS DISTINCT FROM r."createdBy"), count(*) FILTER (WHERE m."sender" = r."createdBy")
        FROM "Message" m LEFT JOIN "Request" r ON r."id_project" = m."id_project" AND r."request_id" = m."request_id"
        WHERE m."id_project" = ${projectId} AND m."createdAt" >= ${since}::timestamp
          AND m."createdAt" < date_trunc('hour', ${since}::timestamp) + interval '1 hour'
      )
      SELECT sum(sent + received)::int AS count, sum(sent)::int AS sent, sum(received)::int AS received FROM "parts"`;
    return row;
  }

  /** Messages per day: `date` YYYY-MM-DD. */
  async messagesByDay(projectId: string) {
    return (await this.series('Message', projectId, 'day')).map((r) => ({ date: r.bucket, count: r.count }));
  }

  /**
   * Conversations by the hour of the week they started (UTC): 168 entries, `weekday` 0 (Sunday)
   * to 6 and `hour` 0 to 23, zeros included: the heat map of when visitors write.
   */
  async requestsByHourOfWeek(projectId: string) {
    return this.db.$queryRaw<Array<{ weekday: number; hour: number; count: number }>>`
      SELECT d.weekday::int AS weekday, h.hour::int AS hour, COALESCE(c.count, 0)::int AS count
      FROM generate_series(0, 6) AS d(weekday) CROSS JOIN generate_series(0, 23) AS h(hour)
      LEFT JOIN (
        SELECT extract(dow FROM "createdAt")::int AS weekday, extract(hour FROM "createdAt")::int AS hour, count(*)::int AS count
        FROM "Request" WHERE "id_project" = ${projectId} AND "createdAt" >= ${this.since()}
        GROUP BY 1, 2
      ) c ON c.weekday = d.weekday AND c.hour = h.hour
      ORDER BY d.weekday, h.hour`;
  }

  /** How many rated requests of the window got each rating, 0 to 5 (six entries, zeros included). */
  async satisfactionDistribution(projectId: string) {
    return this.db.$queryRaw<Array<{ rating: number; count: number }>>`
      SELECT g.rating::int AS rating, COALESCE(c.count, 0)::int AS count
      FROM generate_series(0, 5) AS g(rating)
      LEFT JOIN (
        SELECT "rating", count(*)::int AS count FROM "Request"
        WHERE "id_project" = ${projectId} AND "createdAt" >= ${this.since()} AND "rating" IS NOT NULL
        GROUP BY 1
      ) c ON c.rating = g.rating
      ORDER BY g.rating`;
  }

  /**
   * First response time per agent: for the requests of the window that a teammate answered, the
   * waiting time (first visitor message to first teammate message, ms), grouped by the teammate
   * who wrote that first answer (bots never count). Most answered first.
   */
  async firstResponseByAgent(projectId: string): Promise<AgentResponse[]> {
    const rows = await this.db.$queryRaw<AgentResponse[]>`
      WITH answered AS (
        SELECT r."waiting_time" AS ms, (
          SELECT m."sender" FROM "Message" m
          WHERE m."id_project" = r."id_project" AND m."request_id" = r."request_id" AND m."createdAt" = r."first_response_at"
            AND m."sender" <> r."createdBy" AND m."sender" NOT LIKE 'bot\_%'
          ORDER BY m."id" LIMIT 1) AS agent
        FROM "Request" r
        WHERE r."id_project" = ${projectId} AND r."createdAt" >= ${this.since()} AND r."waiting_time" IS NOT NULL
      )
      SELECT a.agent AS id_user, NULLIF(trim(concat_ws(' ', u."firstname", u."lastname")), '') AS fullname,
             avg(a.ms)::float8 AS average, percentile_cont(0.5) WITHIN GROUP (ORDER BY a.ms)::float8 AS median, count(*)::int AS count
      FROM answered a LEFT JOIN "User" u ON u."id" = a.agent
      WHERE a.agent IS NOT NULL
      GROUP BY a.agent, u."firstname", u."lastname"
      ORDER BY count(*) DESC, a.agent`;
    return rows.map((r) => ({ ...r, average: num(r.average), median: num(r.median) }));
  }
}
