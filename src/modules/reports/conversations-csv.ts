import { Readable } from 'node:stream';
import type { Db } from '../../infra/database.js';
import type { EventLog } from '../../infra/event-log.js';

// The conversations report: one CSV row per conversation, read in pages by id (keyset, so each
// page is one indexed query and nothing is held between pages) and written as the client reads
// (the stream pulls the next page only when the socket drained the last), so memory does not grow
// with the number of rows. `sla_breached` says whether any SLA target of the conversation was
// missed (src/modules/sla).

const pageSize = 500;
export const reportColumns = ['id', 'created', 'first_response_seconds', 'resolution_seconds', 'agent', 'department', 'tags', 'rating', 'sla_breached'] as const;

/** A CSV field: quoted when it holds a comma, a quote or a line break; formula-leading text neutralised for spreadsheets. */
export function csvField(value: unknown): string {
  if (value === null || value === undefined) return '';
  let text = String(value);
  if (/^[=+\-@\t\r]/.test(text) && !/^-?\d/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

const seconds = (from: Date, to: Date | null) => (to ? Math.max(0, Math.round((to.getTime() - from.getTime()) / 1000)) : null);

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
    let after: string | null = null;
    let header = true;
    async function* rows() {
      if (header) {
        header = false;
        yield `${reportColumns.join(',')}\r\n`;
      }
      for (;;) {
        const page = await db.request.findMany({
          where: {
            id_project: projectId,
            ...(after ? { id: { gt: after } } : {}),
            ...(range.from || range.to ? { createdAt: { ...(range.from ? { gte: range.from } : {}), ...(range.to ? { lte: range.to } : {}) } } : {}),
          },
          orderBy: { id: 'asc' },
          take: pageSize,
          select: { id: true, request_id: true, createdAt: true, first_response_at: true, closed_at: true, participatingAgents: true, departmentId: true, tags: true, rating: true },
        });
        if (!page.length) return;
        after = page[page.length - 1].id;
        const unknown = [...new Set(page.flatMap((r) => r.participatingAgents))].filter((id) => !names.has(id));
        if (unknown.length) {
          for (const user of await db.user.findMany({ where: { id: { in: unknown } }, select: { id: true, firstname: true, lastname: true, email: true } })) {
            names.set(user.id, [user.firstname, user.lastname].filter(Boolean).join(' ') || user.email || user.id);
          }
          // Bounded: a project's agents are few, but keep the map from growing without end.
          if (names.size > 10_000) names.clear();
        }
        const slas = await db.requestSla.findMany({
          where: { id_project: projectId, request_id: { in: page.map((r) => r.request_id) }, NOT: { breached: { isEmpty: true } } },
          select: { request_id: true },
        });
        const breached = new Set(slas.map((s) => s.request_id));
        let chunk = '';
        for (const r of page) {
          const tags = Array.isArray(r.tags) ? (r.tags as Array<{ tag?: string }>).map((x) => x.tag).filter(Boolean).join(';') : '';
          chunk += [
            r.request_id,
            r.createdAt.toISOString(),
            seconds(r.createdAt, r.first_response_at),
            seconds(r.createdAt, r.closed_at),
            r.participatingAgents.map((id) => names.get(id) ?? id).join(';'),
            r.departmentId ? (departments.get(r.departmentId) ?? r.departmentId) : '',
            tags,
            r.rating,
            breached.has(r.request_id),
          ].map(csvField).join(',') + '\r\n';
        }
        yield chunk;
      }
    }
    return Readable.from(rows(), { objectMode: false, highWaterMark: 1 });
  }
}
