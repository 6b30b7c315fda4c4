import { z } from 'zod';
import { defineEvents } from '../../events.js';

// The events of reports (src/events.ts).

export const reportsEvents = defineEvents({
  /** The conversations report was exported as CSV. */
  'report.export': { payload: z.looseObject({ format: z.string() }), audit: true },
});

type ReportsEvents = typeof reportsEvents;
declare module '../../events.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface DomainEventRegistry extends ReportsEvents {}
}
