import { z } from 'zod';
import { defineEvents, projectRecords } from '../../events.js';

// The events of presence (src/events.ts).

const teammateRecord = projectRecords('Teammate', 'projectUser', { user: true });

export const presenceEvents = defineEvents({
  /** A teammate's first messaging app opened, or the last one closed. */
  'project_user.presence': { payload: z.looseObject({ presence: z.string() }), webhook: { description: 'A teammate went online or offline (`presence.status`): their first messaging app opened, or their last one closed.', record: teammateRecord } },
});

type PresenceEvents = typeof presenceEvents;
declare module '../../events.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface DomainEventRegistry extends PresenceEvents {}
}
