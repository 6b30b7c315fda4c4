import { z } from 'zod';
import { badInput, notFound, parseInput } from '../../errors.js';
import type { Db } from '../../infra/database.js';
import type { EventLog } from '../../infra/event-log.js';
import { listingInput, pageOf } from '../../paging.js';
import type { CustomEvent } from '../../generated/prisma/client.js';
import type { TeammateRecord } from '../teammates/service.js';
import { customEventPrefix, type CustomEventName } from '../../events.js';

/** An event with the teammate who fired it, when the reader loaded it (see `withTeammates`). */
export type CustomEventRecord = CustomEvent & { teammate?: TeammateRecord | null };

const maxAttributesBytes = 64 * 1024;

/**
 * Custom events are documented as `event.emit.<NAME>`, but clients also fire platform names such
 * as `faqbot.answer_not_found`: any dot-separated name is stored and echoed as sent. Either way
 * the domain event is logged under `event.emit.` (see `domainEventName`), so a client can never
 * pass its event off as one this server emits (a fired `message.create` is not a message).
 */
const fireInput = z.object({
  name: z
    .string()
    .trim()
    .min(1, 'is required')
    .max(200, 'must be at most 200 characters')
    .regex(/^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$/, 'must be dot-separated words of letters, digits, _ and - (event.emit.<EVENT_NAME> for custom events)'),
  attributes: z.record(z.string(), z.unknown(), { message: 'must be an object' }).default({}),
});

const listInput = listingInput(['createdAt', 'updatedAt', 'name'], 'createdAt');

/** The domain event a fired event is logged and delivered as: `event.emit.<NAME>` whatever name it was fired with. */
export function domainEventName(name: string): CustomEventName {
  return name.startsWith(customEventPrefix) ? (name as CustomEventName) : `${customEventPrefix}${name}`;
}

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
      await emit({ projectId, name: domainEventName(event.name), subject: event.id, payload: { project_user: teammate.id } });
      return { ...event, teammate };
    });
  }

  async list(projectId: string, query: unknown) {
    const events = await this.db.customEvent.findMany({ where: { id_project: projectId }, ...pageOf(parseInput(listInput, query)) });
    return this.withTeammates(projectId, events);
  }

  async get(projectId: string, id: string) {
    const event = await this.db.customEvent.findFirst({ where: { id, id_project: projectId } });
    if (!event) throw notFound('event');
    return (await this.withTeammates(projectId, [event]))[0];
  }

  /**
   * The events with the teammates who fired them, in one read. A removed teammate is still shown
   * (trashed), as the event happened; null only if the row is gone.
   */
  async withTeammates(projectId: string, events: CustomEvent[]): Promise<CustomEventRecord[]> {
    const ids = [...new Set(events.map((e) => e.project_user))];
    const teammates = ids.length
      ? await this.db.projectUser.findMany({ where: { id_project: projectId, id: { in: ids } }, include: { user: true } })
      : [];
    const byId = new Map(teammates.map((m) => [m.id, m]));
    return events.map((event) => ({ ...event, teammate: byId.get(event.project_user) ?? null }));
  }
}
