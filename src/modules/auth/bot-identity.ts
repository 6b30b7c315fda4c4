import jwt from 'jsonwebtoken';
import { Prisma, type Bot, type User } from '../../generated/prisma/client.js';
import { actorAccount } from './actor-account.js';

// How a bot appears to the rest of the platform: the sender id of its messages, and the JWT
// signed with its own secret whose audience names it. Here, with the other credentials and
// principals, since requests, routing and sign-in all tell bots apart by these (src/modules/bots
// builds on them).

const audiencePrefix = 'bots/';

/** What a bot's sender id starts with (for database filters; `isBotSender` elsewhere). */
export const botSenderPrefix = 'bot_';
const senderPrefix = botSenderPrefix;

/** The sender id a bot's messages carry, and the principal id of a bot token. */
export const botSender = (botId: string) => `${senderPrefix}${botId}`;

export const isBotSender = (sender: string) => sender.startsWith(senderPrefix);

/** The bot id of a bot's sender id (`bot_<id>`), or null for a user id. */
export const botIdOf = (sender: string): string | null => (isBotSender(sender) ? sender.slice(senderPrefix.length) : null);

/** SQL: whether the text `column` holds a bot's sender id. */
export const isBotSenderSql = (column: Prisma.Sql) => Prisma.sql`starts_with(${column}, ${senderPrefix})`;

/** SQL: the sender id of the bot whose id is `column`. */
export const botSenderSql = (column: Prisma.Sql) => Prisma.sql`(${senderPrefix} || ${column})`;

export function signBotToken(bot: Bot, expiresInSeconds: number): string {
  return jwt.sign({ id_project: bot.id_project }, bot.secret, {
    algorithm: 'HS256',
    audience: `${audiencePrefix}${bot.id}`,
    subject: botSender(bot.id),
    expiresIn: expiresInSeconds,
  });
}

/** The bot a token claims to be for (unverified: only to find the secret to verify it with). */
export function claimedBotId(token: string): string | null {
  const claims = jwt.decode(token, { json: true });
  const aud = claims?.aud;
  return typeof aud === 'string' && aud.startsWith(audiencePrefix) ? aud.slice(audiencePrefix.length) : null;
}

/** Verifies a bot token with the bot's own secret; throws jsonwebtoken's errors. */
export function verifyBotToken(token: string, bot: Bot) {
  return jwt.verify(token, bot.secret, {
    algorithms: ['HS256'],
    audience: `${audiencePrefix}${bot.id}`,
    subject: botSender(bot.id),
  }) as jwt.JwtPayload;
}

/** The account-shaped view of a bot that principals carry, so code reading `principal.user` sees the bot's name. */
export function botAsUser(bot: Bot): User {
  return actorAccount({ id: botSender(bot.id), name: bot.name, createdAt: bot.createdAt, updatedAt: bot.updatedAt, v: bot.v });
}
