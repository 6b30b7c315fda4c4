import { roleAtLeast } from '../teammates/roles.js';

// Who sees which messages, once. A message is hidden when its attributes say `subtype: "info"` or
// `hidden: true` (notices for the agents); end users (users and guests) never see hidden messages,
// whether they list them, read one, or follow them live.

/** `subtype: "info"` and `hidden: true` keep a message out of end-user channels. */
export function isHidden(attributes: Record<string, unknown>) {
  return attributes.subtype === 'info' || attributes.hidden === true;
}

/** End users: below agent. */
const isEndUser = (member: { role: string }) => !roleAtLeast(member.role, 'agent');

/** Whether `member` sees a message that is (or is not) `hidden`. */
export const seesMessage = (member: { role: string }, message: { hidden: boolean }) => !message.hidden || !isEndUser(member);

/** The database filter of the messages `member` sees. */
export const visibleMessages = (member: { role: string }) => (isEndUser(member) ? { hidden: false } : {});
