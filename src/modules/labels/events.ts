import { z } from 'zod';
import { defineEvents } from '../../events.js';

// The events of labels (src/events.ts).

export const labelsEvents = defineEvents({
  'label.create': { payload: z.looseObject({ lang: z.string() }) },
  'label.update': { payload: z.looseObject({ lang: z.string(), default: z.boolean().optional() }) },
  'label.delete': { payload: z.looseObject({ lang: z.string() }), audit: true },
});

type LabelsEvents = typeof labelsEvents;
declare module '../../events.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface DomainEventRegistry extends LabelsEvents {}
}
