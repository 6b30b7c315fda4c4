import { z } from 'zod';
import { defineEvents, emptyPayload, changedFields, projectRecords } from '../../events.js';

// The events of bots (src/events.ts).

const botRecord = projectRecords('Bot', 'bot');

export const botsEvents = defineEvents({
  'bot.create': { payload: emptyPayload, webhook: { description: 'A chatbot was created.', record: botRecord } },
  'bot.update': { payload: z.looseObject({ fields: changedFields.optional(), intents: z.unknown().optional() }), webhook: { description: 'A chatbot changed.', record: botRecord } },
  'bot.delete': { payload: emptyPayload, webhook: { description: 'A chatbot was deleted (trashed).', record: botRecord }, audit: true },
  'intent.create': { payload: z.looseObject({ id_faq_kb: z.string() }) },
  'intent.update': { payload: z.looseObject({ id_faq_kb: z.string(), fields: changedFields.optional() }) },
  'intent.delete': { payload: z.looseObject({ id_faq_kb: z.string() }), audit: true },
});

type BotsEvents = typeof botsEvents;
declare module '../../events.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface DomainEventRegistry extends BotsEvents {}
}
