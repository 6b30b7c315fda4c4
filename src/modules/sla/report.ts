import { z } from 'zod';
import { parseInput } from '../../errors.js';
import type { Db } from '../../infra/database.js';

// The SLA report: the breaches of a period (default: the last 12 weeks) by department, by agent
// (each teammate serving the request when it breached; a request served by none counts under
// null) and by week (weeks start on Monday, UTC), from the `SlaBreach` rows the timers write.

const when = z.iso.datetime({ offset: true, message: 'must be an ISO-8601 timestamp, e.g. 2026-12-01T00:00:00Z' }).transform((v) => new Date(v));
const input = z.object({ from: when.optional(), to: when.optional() });
const defaultSpanMs = 12 * 7 * 86_400_000;

export interface SlaReport {
  from: Date;
  to: Date;
  total: number;
  byTarget: Array<{ target: string; breaches: number }>;
  byDepartment: Array<{ department_id: string | null; name: string | null; breaches: number }>;
  byAgent: Array<{ id_user: string | null; fullname: string | null; breaches: number }>;
  byWeek: Array<{ week: string; breaches: number }>;
}

export class SlaReports {
  constructor(private db: Db) {}

  async breaches(projectId: string, query: unknown): Promise<SlaReport> {
    const range = parseInput(input, query);
    const to = range.to ?? new Date();
    const from = range.from ?? new Date(to.getTime() - defaultSpanMs);
    const count = (n: bigint | number) => Number(n);
    const [byTarget, byDepartment, byAgent, byWeek] = await Promise.all([
      this.db.$queryRaw<Array<{ target: string; n: bigint }>>`
        SELECT "target", count(*) AS n FROM "SlaBreach" WHERE "id_project" = ${projectId} AND "createdAt" >= ${from} AND "createdAt" <= ${to}
        GROUP BY 1 ORDER BY 2 DESC, 1`,
      this.db.$queryRaw<Array<{ id: string | null; name: string | null; n: bigint }>>`
        SELECT b."departmentId" AS id, d."name" AS name, count(*) AS n FROM "SlaBreach" b
        LEFT JOIN "Department" d ON d."id" = b."departmentId" AND d."id_project" = b."id_project"
        WHERE b."id_project" = ${projectId} AND b."createdAt" >= ${from} AND b."createdAt" <= ${to}
        GROUP BY 1, 2 ORDER BY 3 DESC, 2`,
      this.db.$queryRaw<Array<{ id: string | null; firstname: string | null; lastname: string | null; email: string | null; n: bigint }>>`
        SELECT a.id, u."firstname", u."lastname", u."email", count(*) AS n
        FROM "SlaBreach" b
        CROSS JOIN LATERAL (SELECT unnest(CASE WHEN cardinality(b."agents") = 0 THEN ARRAY[NULL]::text[] ELSE b."agents" END) AS id) a
        LEFT JOIN "User" u ON u."id" = a.id
        WHERE b."id_project" = ${projectId} AND b."createdAt" >= ${from} AND b."createdAt" <= ${to}
        GROUP BY 1, 2, 3, 4 ORDER BY 5 DESC, 1`,
      this.db.$queryRaw<Array<{ week: Date; n: bigint }>>`
        SELECT date_trunc('week', b."createdAt") AS week, count(*) AS n FROM "SlaBreach" b
        WHERE b."id_project" = ${projectId} AND b."createdAt" >= ${from} AND b."createdAt" <= ${to}
        GROUP BY 1 ORDER BY 1`,
    ]);
    return {
      from,
      to,
      total: byTarget.reduce((sum, r) => sum + count(r.n), 0),
      byTarget: byTarget.map((r) => ({ target: r.target, breaches: count(r.n) })),
      byDepartment: byDepartment.map((r) => ({ department_id: r.id, name: r.name, breaches: count(r.n) })),
      byAgent: byAgent.map((r) => ({
        id_user: r.id,
        fullname: r.id ? [r.firstname, r.lastname].filter(Boolean).join(' ') || r.email || r.id : null,
        breaches: count(r.n),
      })),
      byWeek: byWeek.map((r) => ({ week: new Date(r.week).toISOString().slice(0, 10), breaches: count(r.n) })),
    };
  }
}
