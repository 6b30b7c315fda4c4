import { z } from 'zod';
import { defineEvents, changedPayload, projectRecords } from '../../events.js';

// The events of kb (src/events.ts).

const kbContentRecord = projectRecords('KbContent', 'kbContent');

export const kbEvents = defineEvents({
  'kb.namespace.create': { payload: z.looseObject({ default: z.boolean().optional() }) },
  'kb.namespace.update': { payload: changedPayload },
  'kb.namespace.delete': {
    payload: z.looseObject({ namespace: z.string(), contents_only: z.boolean().optional(), contents: z.number().optional() }),
    audit: true,
  },
  'kb.content.status': { payload: z.looseObject({ namespace: z.string(), status: z.number(), error: z.string().optional() }) },
  'kb.content.indexed': { payload: z.looseObject({ namespace: z.string(), chunks: z.number() }), webhook: { description: 'A knowledge-base content finished indexing.', record: kbContentRecord } },
  'kb.content.delete': { payload: z.looseObject({ namespace: z.string() }), audit: true },
});

type KbEvents = typeof kbEvents;
declare module '../../events.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface DomainEventRegistry extends KbEvents {}
}
