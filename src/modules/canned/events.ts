import { defineEvents, recordEvents } from '../../events.js';

// The events of canned (src/events.ts).
export const cannedEvents = defineEvents(recordEvents('canned'));

type CannedEvents = typeof cannedEvents;
declare module '../../events.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface DomainEventRegistry extends CannedEvents {}
}
