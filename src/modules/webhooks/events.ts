import { z } from 'zod';
import { defineEvents, changedPayload, emptyPayload, projectRecords } from '../../events.js';

// The events of webhooks (src/events.ts).

const webhookSubscriptionRecord = projectRecords('WebhookSubscription', 'subscription');

const reasonExtra = { reason: { from: 'reason', schema: { type: ['string', 'null'], description: 'Why it was disabled.' } } };

export const webhooksEvents = defineEvents({
  'subscription.create': { payload: z.looseObject({ event: z.string() }), audit: true },
  'subscription.update': { payload: changedPayload, audit: true },
  'subscription.delete': { payload: emptyPayload, audit: true },
  'subscription.disabled': { payload: z.looseObject({ reason: z.string() }), webhook: { description: 'A webhook subscription was disabled after failing (410 Gone, or failing too long).', record: webhookSubscriptionRecord, extra: reasonExtra } },
});

type WebhooksEvents = typeof webhooksEvents;
declare module '../../events.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface DomainEventRegistry extends WebhooksEvents {}
}
