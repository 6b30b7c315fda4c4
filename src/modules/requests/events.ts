import { z } from 'zod';
import { defineEvents, projectRecords, changedFields } from '../../events.js';

// The events of requests (src/events.ts).

const request = z.looseObject({
  request_id: z.string(),
  department_id: z.string().nullish(),
  assignment_reason: z.string().nullish(),
  fields: changedFields.optional(),
  status: z.number().optional(),
});

const requestRecord = projectRecords('Request', 'request');

export const requestsEvents = defineEvents({
  'request.create': { payload: request, webhook: { description: 'A request (conversation or ticket) was opened.', record: requestRecord } },
  'request.update': { payload: request, webhook: { description: 'A request changed (assignment, status, attributes...).', record: requestRecord } },
  'request.close': { payload: request, webhook: { description: 'A request was closed.', record: requestRecord } },
  'request.delete': { payload: z.looseObject({ request_id: z.string() }), audit: true },
  /** Other requests of the same person moved into this one (`from`: their ids), each closed with a pointer to it. */
  'request.merge': { payload: z.looseObject({ request_id: z.string(), from: z.array(z.string()) }), webhook: { description: 'Other requests were merged into this one (payload: the surviving request; the event names the merged ones in `from`).', record: requestRecord }, audit: true },
  /** Closed conversations past the project's retention removed (a run of the retention job). */
  'retention.purge': { payload: z.looseObject({ requests: z.number() }), audit: true },
  /** A teammate read a request up to now (PUT .../seen): their own consoles' unread counts follow. */
  'request.seen': { payload: z.looseObject({ request_id: z.string(), id_user: z.string() }) },
});

type RequestsEvents = typeof requestsEvents;
declare module '../../events.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface DomainEventRegistry extends RequestsEvents {}
}
