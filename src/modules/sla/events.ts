import { z } from 'zod';
import { defineEvents, changedPayload, emptyPayload, projectRecords } from '../../events.js';

// The events of sla (src/events.ts).

/** An SLA timer fired: which target of which request, and its deadline. */
const sla = z.looseObject({ request_id: z.string(), target: z.string(), due_at: z.string(), policy_id: z.string() });

const requestRecord = projectRecords('Request', 'request');

/** Which target fired and its deadline, from the event. */
const slaExtra = {
  sla_target: { from: 'target', schema: { type: ['string', 'null'], description: 'The target: first_response, next_response or resolution.' } },
  sla_due_at: { from: 'due_at', schema: { type: ['string', 'null'], description: "The target's deadline (ISO-8601)." } },
};

export const slaEvents = defineEvents({
  'sla_policy.create': { payload: emptyPayload, audit: true },
  'sla_policy.update': { payload: changedPayload, audit: true },
  'sla_policy.delete': { payload: emptyPayload, audit: true },
  /** What a request shows of its SLA changed: its policy, a deadline, or a target met (src/modules/sla/tracker.ts). */
  'sla.update': { payload: z.looseObject({ request_id: z.string() }) },
  /** 80% of an SLA target's time went by with the target not met (subject: the request). */
  'sla.warning': { payload: sla, webhook: { description: "80% of an SLA target's time went by and the target is not met (payload: the request, `sla_target`, `sla_due_at`).", record: requestRecord, extra: slaExtra } },
  /** An SLA target was missed (subject: the request); once per target and deadline. */
  'sla.breach': { payload: sla, webhook: { description: 'An SLA target was missed (payload: the request, `sla_target`, `sla_due_at`). Once per target and deadline.', record: requestRecord, extra: slaExtra } },
});

type SlaEvents = typeof slaEvents;
declare module '../../events.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface DomainEventRegistry extends SlaEvents {}
}
