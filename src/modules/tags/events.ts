import { defineEvents, recordEvents } from '../../events.js';

// The events of tags (src/events.ts).
export const tagsEvents = defineEvents(recordEvents('tag'));

type TagsEvents = typeof tagsEvents;
declare module '../../events.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface DomainEventRegistry extends TagsEvents {}
}
