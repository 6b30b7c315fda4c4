import { z } from 'zod';
import { notFound, parseInput } from '../../errors.js';
import type { Db } from '../../infra/database.js';
import type { EventLog } from '../../infra/event-log.js';
import type { CannedResponse, User } from '../../generated/prisma/client.js';
import { listingInput, pageOf } from '../../paging.js';

export type CannedRecord = CannedResponse;

export interface RenderedCanned {
  id: string;
  title: string;
  text: string;
  request_id: string;
}

const json = z.record(z.string(), z.unknown());
const title = z.string().trim().min(1, 'is required').max(200, 'must be at most 200 characters');
const text = z.string().min(1, 'is required').max(10_000, 'must be at most 10000 characters');

const createInput = z.object({ title, text, attributes: json.default({}) });
const updateInput = z.object({ title: title.optional(), text: text.optional(), attributes: json.optional() });
const listInput = listingInput(['createdAt', 'updatedAt', 'title'], 'createdAt');
const renderInput = z.object({ request_id: z.string().trim().min(1, 'is required') });

export class CannedService {
  constructor(
    private db: Db,
    private events: EventLog,
  ) {}

  list(projectId: string, query: unknown) {
    const listing = parseInput(listInput, query);
    return this.db.cannedResponse.findMany({ where: { id_project: projectId }, ...pageOf(listing) });
  }

  async get(projectId: string, id: string) {
    const canned = await this.db.cannedResponse.findFirst({ where: { id, id_project: projectId } });
    if (!canned) throw notFound('canned response');
    return canned;
  }

  async create(projectId: string, actorUserId: string, input: unknown) {
    const data = parseInput(createInput, input);
    return this.events.transaction(async (tx, emit) => {
      const canned = await tx.cannedResponse.create({
        data: { id_project: projectId, title: data.title, text: data.text, attributes: data.attributes as object, createdBy: actorUserId },
      });
      await emit({ projectId, name: 'canned.create', subject: canned.id });
      return canned;
    });
  }

  async update(projectId: string, id: string, input: unknown) {
    const data = parseInput(updateInput, input);
    const current = await this.get(projectId, id);
    return this.events.transaction(async (tx, emit) => {
      const canned = await tx.cannedResponse.update({
        where: { id: current.id },
        data: { title: data.title, text: data.text, attributes: data.attributes as object | undefined },
      });
      await emit({ projectId, name: 'canned.update', subject: canned.id, payload: { fields: Object.keys(data) } });
      return canned;
    });
  }

  async remove(projectId: string, id: string) {
    const current = await this.get(projectId, id);
    return this.events.transaction(async (tx, emit) => {
      const canned = await tx.cannedResponse.delete({ where: { id: current.id } });
      await emit({ projectId, name: 'canned.delete', subject: canned.id });
      return canned;
    });
  }

  /**
   * The text as the agent would send it in a request: `$recipient_name` becomes the lead's
   * name (its e-mail when it has none) and `$agent_name` the agent's.
   */
  async render(projectId: string, id: string, agent: User, input: unknown): Promise<RenderedCanned> {
    const { request_id } = parseInput(renderInput, input);
    const canned = await this.get(projectId, id);
    const request = await this.db.request.findFirst({
      where: { id_project: projectId, OR: [{ request_id }, { id: request_id }] },
      select: { request_id: true, leadId: true },
    });
    if (!request) throw notFound('request');
    const lead = request.leadId
      ? await this.db.lead.findFirst({ where: { id: request.leadId, id_project: projectId } })
      : null;
    const recipient = lead?.fullname || lead?.email || '';
    const agentName = [agent.firstname, agent.lastname].filter(Boolean).join(' ');
    return {
      id: canned.id,
      title: canned.title,
      request_id: request.request_id,
      text: canned.text.replaceAll('$recipient_name', recipient).replaceAll('$agent_name', agentName),
    };
  }
}
