import { defineEvents, recordEvents } from '../../events.js';

// The events of groups (src/events.ts).
export const groupsEvents = defineEvents(recordEvents('group'));

type GroupsEvents = typeof groupsEvents;
declare module '../../events.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface DomainEventRegistry extends GroupsEvents {}
}
