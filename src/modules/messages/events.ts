import { z } from 'zod';
import { defineEvents, projectRecords } from '../../events.js';

// The events of messages (src/events.ts).

const messageRecord = projectRecords('Message', 'message');

export const messagesEvents = defineEvents({
  /** What a bot, a live subscription and the webhook dispatcher need to know without a read. */
  'message.create': {
    payload: z.looseObject({ request_id: z.string().nullish(), sender: z.string(), hidden: z.boolean().optional() }),
    webhook: { description: 'A message was added to a request (visitor, agent or bot).', record: messageRecord },
  },
  'message.update': {
    payload: z.looseObject({ request_id: z.string(), receipt: z.unknown().optional(), by: z.string().optional(), hidden: z.boolean().optional() }),
  },
  /** A scheduled message was not sent: its conversation closed (or went) meanwhile, or its author left. */
  'message.scheduled_skipped': {
    payload: z.looseObject({ request_id: z.string(), scheduled_message_id: z.string(), by: z.string(), reason: z.string() }),
  },
});

type MessagesEvents = typeof messagesEvents;
declare module '../../events.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface DomainEventRegistry extends MessagesEvents {}
}
