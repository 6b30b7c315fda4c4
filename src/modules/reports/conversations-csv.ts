import { Readable } from 'node:stream';
import { Prisma } from '../../generated/prisma/client.js';
import { queryRows, type Db } from '../../infra/database.js';
import type { EventLog } from '../../infra/event-log.js';

// The conversations report: one CSV row per conversation, read in pages by id (keyset, so each
// page is one indexed query and nothing is held between pages; each row only the columns it shows,
// its durations, tags and creation text computed by the database) and written as the client reads
// (the stream pulls the next page only when the socket drained the last), so memory does not grow
// with the number of rows. `sla_breached` says whether any SLA target of the conversation was
// missed (src/modules/sla).
//
// The pages are read on the driver (`queryRows`), not the ORM's raw query: that one allocated
// several kilobytes a row and kept a page alive across minor collections, so each export promoted
// megabytes a second into the old generation, which V8 let grow by 40-90 MB before collecting it
// (the RSS growth `npm run bench exports` measures). Only text, numbers, booleans and a text array
// come back, which both paths convert alike (see `queryRows`).

const pageSize = 500;
export const reportColumns = ['id', 'created', 'first_response_seconds', 'resolution_seconds', 'agent', 'department', 'tags', 'rating', 'sla_breached'] as const;

/** A CSV field: quoted when it holds a comma, a quote or a line break; formula-leading text neutralised for spreadsheets. */
export function csvField(value: unknown): string {
  if (value === null || value === undefined) return '';
  let text = String(value);
  if (/^[=+\-@\t\r]/.test(text) && !/^-?\d/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** A page's rows as the report needs them: durations and tags computed by the database, nothing else read. */
interface ReportRow {
  id: string;
  request_id: string;
  /** As `Date.toISOString()` writes it, made by the database. */
  created: string;
  agents: string[];
  departmentId: string | null;
  rating: number | null;
  first_response_seconds: number | null;
  resolution_seconds: number | null;
  tags: string | null;
  sla_breached: boolean;
}

export class ConversationsReport {
  constructor(
    private db: Db,
    private events: EventLog,
  ) {}

  /** The CSV, streamed; `from`/`to` bound the conversations' creation time. Audited as `report.export`. */
  async csv(projectId: string, range: { from?: Date; to?: Date } = {}): Promise<Readable> {
    await this.events.transaction(async (_tx, emit) => emit({ projectId, name: 'report.export', subject: projectId, payload: { format: 'csv' } }));
    const departments = new Map((await this.db.department.findMany({ where: { id_project: projectId }, select: { id: true, name: true } })).map((d) => [d.id, d.name]));
    const names = new Map<string, string>();
    const db = this.db;
    /** The CSV lines of the page after `after` (null: none left), and the id to continue after. */
    async function page(after: string | null): Promise<{ chunk: string; last: string } | null> {
      const rows = await queryRows<ReportRow>(
        db,
        Prisma.sql`
        SELECT "id", "request_id", to_char("createdAt", 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS created, "participatingAgents" AS agents, "departmentId", "rating",
          CASE WHEN "first_response_at" IS NOT NULL THEN GREATEST(0, round(extract(epoch FROM ("first_response_at" - "createdAt"))))::int END AS first_response_seconds,
          CASE WHEN "closed_at" IS NOT NULL THEN GREATEST(0, round(extract(epoch FROM ("closed_at" - "createdAt"))))::int END AS resolution_seconds,
          (SELECT string_agg(t ->> 'tag', ';') FROM jsonb_array_elements(CASE WHEN jsonb_typeof("tags") = 'array' THEN "tags" ELSE '[]'::jsonb END) t
            WHERE coalesce(t ->> 'tag', '') <> '') AS tags,
          EXISTS (SELECT 1 FROM "RequestSla" s WHERE s."id_project" = r."id_project" AND s."request_id" = r."request_id" AND cardinality(s."breached") > 0) AS sla_breached
        FROM "Request" r
        WHERE "id_project" = ${projectId}
          ${after ? Prisma.sql`AND "id" > ${after}` : Prisma.empty}
          ${range.from ? Prisma.sql`AND "createdAt" >= ${range.from}` : Prisma.empty}
          ${range.to ? Prisma.sql`AND "createdAt" <= ${range.to}` : Prisma.empty}
        ORDER BY "id" LIMIT ${pageSize}`,
      );
      if (!rows.length) return null;
      const unknown = [...new Set(rows.flatMap((r) => r.agents))].filter((id) => !names.has(id));
      if (unknown.length) {
        for (const user of await db.user.findMany({ where: { id: { in: unknown } }, select: { id: true, firstname: true, lastname: true, email: true } })) {
          names.set(user.id, [user.firstname, user.lastname].filter(Boolean).join(' ') || user.email || user.id);
        }
        // Bounded: a project's agents are few, but keep the map from growing without end.
        if (names.size > 10_000) names.clear();
      }
      let chunk = '';
      for (const r of rows) {
        chunk += [
          r.request_id,
          r.created,
          r.first_response_seconds,
          r.resolution_seconds,
          r.agents.map((id) => names.get(id) ?? id).join(';'),
          r.departmentId ? (departments.get(r.departmentId) ?? r.departmentId) : '',
          r.tags,
          r.rating,
          r.sla_breached,
        ].map(csvField).join(',') + '\r\n';
      }
      return { chunk, last: rows[rows.length - 1].id };
    }
    // The generator holds only the text of the page it waits to hand on, not the page's rows.
    async function* lines() {
      yield `${reportColumns.join(',')}\r\n`;
      for (let next = await page(null); next; next = await page(next.last)) yield next.chunk;
    }
    return Readable.from(lines(), { objectMode: false, highWaterMark: 1 });
  }
}
