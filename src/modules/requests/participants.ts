import { botIdOf, isBotSender } from '../auth/bot-identity.js';

// A request's `participants` holds user ids and `bot_<id>` entries, in the order they joined.
// Everything else about who takes part (agents, bots, hasBot) is read from that one list.

/** The bot id of a `bot_<id>` participant, or null for a user id. */
export { botIdOf };

/** User ids of the human participants, in join order. */
export function humanParticipants(participants: readonly string[]): string[] {
  return participants.filter((p) => !isBotSender(p));
}

/** Bot ids (without the `bot_` prefix) of the bot participants, in join order. */
export function botParticipants(participants: readonly string[]): string[] {
  return participants.flatMap((p) => botIdOf(p) ?? []);
}
