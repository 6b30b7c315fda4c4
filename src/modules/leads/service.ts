import { z } from 'zod';
import { notFound, parseInput } from '../../errors.js';
import type { Db } from '../../infra/database.js';
import type { EventLog } from '../../infra/event-log.js';
import { Prisma, type Lead } from '../../generated/prisma/client.js';
import { listingInput } from '../../paging.js';
import { segmentLeadsCondition, type SegmentRecord, type SegmentService } from '../segments/service.js';
import { findLeads, leadSortFields } from './query.js';

export type LeadRecord = Lead;

export interface LeadPage {
  perPage: number;
  count: number;
  leads: LeadRecord[];
}

const json = z.record(z.string(), z.unknown());
/** Optional text: an empty string clears it like null does. */
const text = (max: number) =>
  z
    .string()
    .trim()
    .max(max, `must be at most ${max} characters`)
    .transform((v) => v || null)
    .nullable();
const email = text(254).refine((v) => v === null || z.email().safeParse(v).success, 'must be a valid e-mail address');
const tags = z
  .array(z.string().trim().min(1, 'must not be empty').max(100, 'must be at most 100 characters'))
  .max(100, 'must have at most 100 tags')
  .transform((list) => [...new Set(list)]);

const contactFields = {
  email,
  fullname: text(200),
  phone: text(50),
  company: text(200),
  note: text(5000),
  streetAddress: text(200),
  city: text(100),
  region: text(100),
  zipcode: text(20),
  country: text(100),
  tags,
  attributes: json,
};

const createInput = z.object({ lead_id: text(200), ...contactFields }).partial();
const updateInput = z.object(contactFields).partial();

const listInput = listingInput(leadSortFields, 'createdAt').extend({
  email: z.string().trim().max(254).optional(),
  full_text: z.string().trim().max(200, 'must be at most 200 characters').optional(),
  tags: z
    .array(z.string())
    .transform((values) => values.flatMap((v) => v.split(',')).map((v) => v.trim()).filter(Boolean))
    .optional(),
  segment: z.string().trim().min(1).optional(),
});

export class LeadService {
  constructor(
    private db: Db,
    private events: EventLog,
    private segments: SegmentService,
  ) {}

  /**
   * A page of leads: `email` and `full_text` search, `tags` (all required), `segment` (an id)
   * or `matching` (a segment already loaded) restrict it.
   */
  async list(projectId: string, query: unknown, matching?: SegmentRecord): Promise<LeadPage> {
    const { email, full_text, tags, segment, ...listing } = parseInput(listInput, query);
    const condition = matching
      ? segmentLeadsCondition(matching)
      : segment
        ? await this.segments.leadsCondition(projectId, segment)
        : undefined;
    const { count, leads } = await findLeads(this.db, projectId, { email, full_text, tags, condition }, listing);
    return { perPage: listing.limit, count, leads };
  }

  async get(projectId: string, id: string) {
    const lead = await this.db.lead.findFirst({ where: { id, id_project: projectId } });
    if (!lead) throw notFound('lead');
    return lead;
  }

  /** With a `lead_id` already known in the project, the lead is updated instead of duplicated. */
  async create(projectId: string, actorUserId: string, input: unknown): Promise<LeadRecord> {
    const data = parseInput(createInput, input);
    try {
      return await this.createOrUpdate(projectId, actorUserId, data);
    } catch (error) {
      // A concurrent create took the lead_id first: this one becomes an update.
      if (data.lead_id && isUniqueViolation(error)) return this.createOrUpdate(projectId, actorUserId, data);
      throw error;
    }
  }

  private createOrUpdate(projectId: string, actorUserId: string, data: z.infer<typeof createInput>) {
    const { attributes, ...fields } = data;
    return this.events.transaction(async (tx, emit) => {
      const existing = data.lead_id
        ? await tx.lead.findUnique({ where: { id_project_lead_id: { id_project: projectId, lead_id: data.lead_id } } })
        : null;
      if (existing) {
        const lead = await tx.lead.update({ where: { id: existing.id }, data: { ...fields, attributes: attributes as object | undefined } });
        await emit({ projectId, name: 'lead.update', subject: lead.id, payload: { fields: Object.keys(data) } });
        return lead;
      }
      const lead = await tx.lead.create({
        data: { ...fields, attributes: attributes as object | undefined, id_project: projectId, createdBy: actorUserId },
      });
      await emit({ projectId, name: 'lead.create', subject: lead.id });
      return lead;
    });
  }

  async update(projectId: string, id: string, input: unknown) {
    const { attributes, ...fields } = parseInput(updateInput, input);
    const current = await this.get(projectId, id);
    return this.events.transaction(async (tx, emit) => {
      const lead = await tx.lead.update({
        where: { id: current.id },
        data: { ...fields, attributes: attributes as object | undefined },
      });
      const changed = [...Object.keys(fields), ...(attributes ? ['attributes'] : [])];
      await emit({ projectId, name: 'lead.update', subject: lead.id, payload: { fields: changed } });
      return lead;
    });
  }

  async remove(projectId: string, id: string) {
    const current = await this.get(projectId, id);
    return this.events.transaction(async (tx, emit) => {
      const lead = await tx.lead.delete({ where: { id: current.id } });
      await emit({ projectId, name: 'lead.delete', subject: lead.id });
      return lead;
    });
  }
}

function isUniqueViolation(error: unknown) {
  return error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002';
}
