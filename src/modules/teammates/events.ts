import { z } from 'zod';
import { defineEvents, changedPayload, emptyPayload, projectRecords } from '../../events.js';

// The events of teammates (src/events.ts).

const pendingInvitationRecord = projectRecords('PendingInvitation', 'invitation');
const teammateRecord = projectRecords('Teammate', 'projectUser', { user: true });

export const teammatesEvents = defineEvents({
  'project_user.invite': { payload: z.looseObject({ pending: z.boolean().optional() }), webhook: {
      description: 'An e-mail was invited (payload: the pending invitation), or a teammate joined, e.g. an invitee accepting (payload: the teammate).',
      record: [pendingInvitationRecord, teammateRecord],
      /** `pending`: an invitation waiting for its answer; otherwise the teammate who joined. */
      pick: (payload) => (payload.pending === true ? 0 : 1),
    }, audit: true },
  'project_user.update': { payload: changedPayload, webhook: { description: 'A teammate changed (role, availability...).', record: teammateRecord }, audit: true },
  'project_user.delete': { payload: emptyPayload, webhook: { description: 'A teammate was removed from the project.', record: teammateRecord }, audit: true },
});

type TeammatesEvents = typeof teammatesEvents;
declare module '../../events.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface DomainEventRegistry extends TeammatesEvents {}
}
