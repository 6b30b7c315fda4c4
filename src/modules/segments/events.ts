import { defineEvents, recordEvents } from '../../events.js';

// The events of segments (src/events.ts).
export const segmentsEvents = defineEvents(recordEvents('segment'));

type SegmentsEvents = typeof segmentsEvents;
declare module '../../events.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface DomainEventRegistry extends SegmentsEvents {}
}
