import { z } from 'zod';
import { defineEvents } from '../../events.js';

// The events of files (src/events.ts).

export const filesEvents = defineEvents({
  'file.create': { payload: z.looseObject({ path: z.string() }) },
  'file.delete': { payload: z.looseObject({ path: z.string() }), audit: true },
});

type FilesEvents = typeof filesEvents;
declare module '../../events.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface DomainEventRegistry extends FilesEvents {}
}
