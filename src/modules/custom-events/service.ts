import { z } from 'zod';
import { badInput, notFound, parseInput } from '../../errors.js';
import type { Db } from '../../infra/database.js';
import type { EventLog } from '../../infra/event-log.js';
import { listingInput, pageOf } from '../../listing.js';
import type { CustomEvent } from '../../generated/prisma/client.js';
import type { TeammateRecord } from '../teammates/service.js';

export type CustomEventRecord = CustomEvent;

const maxAttributesBytes = 64 * 1024;

const fireInput = z.object({
  name: z
    .string()
    .trim()
    .max(200)
    .regex(/^event\.emit\.[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$/, 'must have the form event.emit.<EVENT_NAME> (letters, digits, _ and -, dot-separated)'),
  attributes: z.record(z.string(), z.unknown(), { message: 'must be an object' }).default({}),
});

const listInput = listingInput(['createdAt', 'updatedAt', 'name'], 'createdAt');

export class CustomEventService {
  constructor(
    private db: Db,
    private events: EventLog,
  ) {}

  /** Records a custom event and logs a domain event of the same name, for subscribers and webhooks. */
  async fire(projectId: string, teammate: TeammateRecord, input: unknown) {
    const data = parseInput(fireInput, input);
    if (Buffer.byteLength(JSON.stringify(data.attributes)) > maxAttributesBytes) {
      throw badInput('attributes', `attributes: must be at most ${maxAttributesBytes} bytes of JSON`);
    }
    return this.events.transaction(async (tx, emit) => {
      const event = await tx.customEvent.create({
        data: {
          id_project: projectId,
          name: data.name,
          project_user: teammate.id,
          attributes: data.attributes as object,
          createdBy: teammate.id_user,
        },
      });
      await emit({ projectId, name: event.name, subject: event.id, payload: { project_user: teammate.id } });
      return event;
    });
  }

  list(projectId: string, query: unknown) {
    return this.db.customEvent.findMany({ where: { id_project: projectId }, ...pageOf(parseInput(listInput, query)) });
  }

  async get(projectId: string, id: string) {
    const event = await this.db.customEvent.findFirst({ where: { id, id_project: projectId } });
    if (!event) throw notFound('event');
    return event;
  }
}
