import { defineEvents, changedPayload, emptyPayload } from '../../events.js';

// The events of projects (src/events.ts).

export const projectsEvents = defineEvents({
  'project.update': { payload: changedPayload, audit: true },
  /** The owner deleted the project: it answers 404 from now on and a job removes its data. */
  'project.delete': { payload: emptyPayload, audit: true },
});

type ProjectsEvents = typeof projectsEvents;
declare module '../../events.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface DomainEventRegistry extends ProjectsEvents {}
}
