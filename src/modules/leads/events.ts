import { z } from 'zod';
import { defineEvents, changedPayload, emptyPayload, projectRecords } from '../../events.js';

// The events of leads (src/events.ts).

const leadRecord = projectRecords('Lead', 'lead');

export const leadsEvents = defineEvents({
  'lead.create': { payload: z.looseObject({ lead_id: z.string().optional() }), webhook: { description: 'A lead (contact) was created.', record: leadRecord } },
  'lead.update': { payload: changedPayload, webhook: { description: 'A lead changed.', record: leadRecord } },
  'lead.delete': { payload: emptyPayload, audit: true },
  /** A lead's erasure: their conversations, messages, files and learned phrasings removed. */
  'lead.erase': { payload: z.looseObject({ requests: z.number(), messages: z.number(), files: z.number() }), audit: true },
  /** Everything held about a lead was exported. */
  'lead.export': { payload: emptyPayload, audit: true },
});

type LeadsEvents = typeof leadsEvents;
declare module '../../events.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface DomainEventRegistry extends LeadsEvents {}
}
