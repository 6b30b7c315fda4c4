import { z } from 'zod';
import { defineEvents, changedPayload, emptyPayload } from '../../events.js';

// The events of assistant (src/events.ts).

export const assistantEvents = defineEvents({
  /** The knowledge loop (src/modules/assistant/proposals.ts): a proposal edited, accepted (as FAQ content) or dismissed. */
  'kb.proposal.update': { payload: changedPayload },
  'kb.proposal.accept': { payload: z.looseObject({ content_id: z.string(), namespace: z.string() }) },
  'kb.proposal.dismiss': { payload: emptyPayload },
});

type AssistantEvents = typeof assistantEvents;
declare module '../../events.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface DomainEventRegistry extends AssistantEvents {}
}
