import { z } from 'zod';
import { notFound, parseInput } from '../../errors.js';
import { prepared, queryRows, type Db } from '../../infra/database.js';
import { Prisma } from '../../generated/prisma/client.js';
import type { EventLog } from '../../infra/event-log.js';
import type { Segment } from '../../generated/prisma/client.js';
import { filterInput, segmentCondition, type Match, type SegmentFilter } from './filters.js';

export type SegmentRecord = Segment;

const name = z.string().trim().min(1, 'is required').max(200, 'must be at most 200 characters');
const match = z.enum(['all', 'any'], { message: 'must be all or any' });
const filters = z.array(filterInput).max(50, 'must have at most 50 filters');

const createInput = z.object({ name, match: match.default('all'), filters: filters.default([]) });
const updateInput = z.object({ name: name.optional(), match: match.optional(), filters: filters.optional() });

/** The SQL condition on "Lead" rows that selects a segment's leads. */
export function segmentLeadsCondition(segment: SegmentRecord) {
  return segmentCondition(segment.match as Match, segment.filters as unknown as SegmentFilter[]);
}

export class SegmentService {
  constructor(
    private db: Db,
    private events: EventLog,
  ) {}

  list(projectId: string) {
    return this.db.segment.findMany({ where: { id_project: projectId }, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }] });
  }

  /**
   * The SQL condition of a project's segment, for a lead list: its match and filters only, read
   * by a prepared statement (a list by segment is a hot path, the whole record is not needed).
   */
  async leadsCondition(projectId: string, id: string): Promise<Prisma.Sql> {
    const [row] = await queryRows<{ match: string; filters: string }>(
      this.db,
      Prisma.sql`${Prisma.raw(prepared)}
      SELECT "match", "filters"::text AS "filters" FROM "Segment" WHERE "id" = ${id} AND "id_project" = ${projectId}`,
    );
    if (!row) throw notFound('segment');
    return segmentCondition(row.match as Match, JSON.parse(row.filters) as SegmentFilter[]);
  }

  async get(projectId: string, id: string) {
    const segment = await this.db.segment.findFirst({ where: { id, id_project: projectId } });
    if (!segment) throw notFound('segment');
    return segment;
  }

  async create(projectId: string, actorUserId: string, input: unknown) {
    const data = parseInput(createInput, input);
    return this.events.transaction(async (tx, emit) => {
      const segment = await tx.segment.create({
        data: { id_project: projectId, name: data.name, match: data.match, filters: data.filters as object[], createdBy: actorUserId },
      });
      await emit({ projectId, name: 'segment.create', subject: segment.id });
      return segment;
    });
  }

  async update(projectId: string, id: string, input: unknown) {
    const data = parseInput(updateInput, input);
    const current = await this.get(projectId, id);
    return this.events.transaction(async (tx, emit) => {
      const segment = await tx.segment.update({
        where: { id: current.id },
        data: { name: data.name, match: data.match, filters: data.filters as object[] | undefined },
      });
      await emit({ projectId, name: 'segment.update', subject: segment.id, payload: { fields: Object.keys(data) } });
      return segment;
    });
  }

  async remove(projectId: string, id: string) {
    const current = await this.get(projectId, id);
    return this.events.transaction(async (tx, emit) => {
      const segment = await tx.segment.delete({ where: { id: current.id } });
      await emit({ projectId, name: 'segment.delete', subject: segment.id });
      return segment;
    });
  }
}
