import { z } from 'zod';
import { conflict, notFound, parseInput } from '../../errors.js';
import type { Db } from '../../infra/database.js';
import type { EventLog } from '../../infra/event-log.js';
import { Prisma, type Tag } from '../../generated/prisma/client.js';
import { listingInput, pageOf } from '../../paging.js';

export type TagRecord = Tag;

const json = z.record(z.string(), z.unknown());
const name = z.string().trim().min(1, 'is required').max(100, 'must be at most 100 characters');
const hexColor = z.string().trim().regex(/^#([0-9a-f]{3}|[0-9a-f]{6}|[0-9a-f]{8})$/i, 'must be a hex color such as #43B1F2');

const createInput = z.object({ tag: name, color: hexColor.optional(), attributes: json.default({}) });
const updateInput = z.object({ tag: name.optional(), color: hexColor.optional(), attributes: json.optional() });
const listInput = listingInput(['createdAt', 'updatedAt', 'tag'], 'createdAt');

export class TagService {
  constructor(
    private db: Db,
    private events: EventLog,
  ) {}

  list(projectId: string, query: unknown) {
    const listing = parseInput(listInput, query);
    return this.db.tag.findMany({ where: { id_project: projectId }, ...pageOf(listing) });
  }

  async get(projectId: string, id: string) {
    const tag = await this.db.tag.findFirst({ where: { id, id_project: projectId } });
    if (!tag) throw notFound('tag');
    return tag;
  }

  /** A tag name is unique in a project: creating it again returns the tag that exists. */
  async create(projectId: string, actorUserId: string, input: unknown) {
    const data = parseInput(createInput, input);
    const existing = () => this.db.tag.findUnique({ where: { id_project_tag: { id_project: projectId, tag: data.tag } } });
    const found = await existing();
    if (found) return found;
    try {
      return await this.events.transaction(async (tx, emit) => {
        const tag = await tx.tag.create({
          data: { id_project: projectId, tag: data.tag, color: data.color, attributes: data.attributes as object, createdBy: actorUserId },
        });
        await emit({ projectId, name: 'tag.create', subject: tag.id });
        return tag;
      });
    } catch (error) {
      // Someone created the same name meanwhile: theirs is the tag.
      if (isUniqueViolation(error)) return (await existing())!;
      throw error;
    }
  }

  async update(projectId: string, id: string, input: unknown) {
    const data = parseInput(updateInput, input);
    const current = await this.get(projectId, id);
    try {
      return await this.events.transaction(async (tx, emit) => {
        const tag = await tx.tag.update({
          where: { id: current.id },
          data: { tag: data.tag, color: data.color, attributes: data.attributes as object | undefined },
        });
        await emit({ projectId, name: 'tag.update', subject: tag.id, payload: { fields: Object.keys(data) } });
        return tag;
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict(`tag: another tag is already named ${data.tag}`, 'tag');
      throw error;
    }
  }

  async remove(projectId: string, id: string) {
    const current = await this.get(projectId, id);
    return this.events.transaction(async (tx, emit) => {
      const tag = await tx.tag.delete({ where: { id: current.id } });
      await emit({ projectId, name: 'tag.delete', subject: tag.id });
      return tag;
    });
  }
}

function isUniqueViolation(error: unknown) {
  return error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002';
}
