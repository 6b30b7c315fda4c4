import { z } from 'zod';
import { defineEvents, emptyPayload } from '../../events.js';

// The events of api keys (src/events.ts).

export const apiKeysEvents = defineEvents({
  'api_key.create': { payload: z.looseObject({ role: z.string().optional() }), audit: true },
  'api_key.revoke': { payload: emptyPayload, audit: true },
});

type ApiKeysEvents = typeof apiKeysEvents;
declare module '../../events.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface DomainEventRegistry extends ApiKeysEvents {}
}
