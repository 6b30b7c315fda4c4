import type { ProjectUser, User } from '../../generated/prisma/client.js';

// Who a request acts as: what authenticating an Authorization header gives (credentials.ts).

export type UserRecord = User;

export interface Principal {
  userId: string;
  user: UserRecord;
  anonymous: boolean;
  /** Set for a bot token: `userId` is then the bot's sender id and `user` a view of the bot. */
  bot?: { id: string; projectId: string };
  /** Set for a project API key: `userId` is `apikey_<id>`, the author of its writes; it is `teammate` in that project only. */
  apiKey?: { id: string; projectId: string; role: string; teammate: ProjectUser & { user: User } };
  /** Set for a signed-in token (JWT): its id (`jti`, or the token's SHA-256) and expiry, what sign-out ends. */
  token?: { id: string; expires: number };
}

/** Resolves `Authorization: Bearer <key>` for project API keys (src/modules/api-keys). */
export interface ApiKeyAuthenticator {
  isKey(credential: string): boolean;
  authenticate(credential: string, clientIp: string): Promise<Principal>;
}

/** The account a principal acts as, for budgets and caps counted per account rather than per token. */
export const accountKey = {
  user: (userId: string) => `user:${userId}`,
  bot: (botId: string) => `bot:${botId}`,
  apiKey: (keyId: string) => `key:${keyId}`,
  of: (principal: Pick<Principal, 'userId' | 'bot' | 'apiKey'>) =>
    principal.bot ? accountKey.bot(principal.bot.id) : principal.apiKey ? accountKey.apiKey(principal.apiKey.id) : accountKey.user(principal.userId),
};
