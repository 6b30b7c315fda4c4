import { createHash, createSecretKey, randomUUID, type KeyObject } from 'node:crypto';
import bcrypt from 'bcryptjs';
import jwt from 'jsonwebtoken';
import type { Config } from '../../config.js';
import { AppError, unauthenticated } from '../../errors.js';
import type { Db } from '../../infra/database.js';
import type { EventBus } from '../../infra/event-bus.js';
import type { Limiters } from '../../infra/rate-limit.js';
import { TtlCache } from '../../infra/ttl-cache.js';
import { botAsUser, botSender, claimedBotId, verifyBotToken } from './bot-identity.js';
import { CredentialRejected, CredentialThrottle, type Attempt } from './throttle.js';
import { userChannel } from './channels.js';
import { readAccount } from './account-read.js';
import { accountKey, type ApiKeyAuthenticator, type Principal, type UserRecord } from './principal.js';

// Credentials: what an Authorization header (Basic, JWT or Bearer) stands for, the tokens this
// server signs, and the password check that sign-in and Basic share, all through one credential
// throttle. Verified credentials and their accounts are cached here, and dropped on every node
// when an account changes or a token is signed out (the bus's `users.changed`).

// Compared against when the e-mail is unknown, so both failures cost one bcrypt comparison.
const decoyHash = bcrypt.hashSync('decoy-password-never-matches', 10);

const basicCacheMs = 60_000;

const signedOut = 'token revoked: signed out; sign in again';

/**
 * The 401 of a token that failed verification. Only a JWT that is not signed with the key counts
 * as a failed credential check: an expired one was genuine, and one that is no JWT at all
 * (`JWT undefined` from a client not signed in yet) guesses nothing.
 */
function tokenError(error: unknown, token: string): AppError {
  if (error instanceof jwt.TokenExpiredError) return unauthenticated('token expired');
  return jwt.decode(token) === null ? unauthenticated('invalid token') : new CredentialRejected('invalid token');
}

export class Credentials {
  private throttle: CredentialThrottle;
  /** Successful Basic credentials, by digest, so each request does not pay a bcrypt comparison. */
  private basicCache = new Map<string, { userId: string; expires: number }>();
  /** Accounts forgotten so far (changed here or on another node): a read begun before one is not cached. */
  private forgotten = 0;
  /**
   * Credentials (a token, an API key, or a Basic value) that verified here, until they expire,
   * with the account each stands for: the API rate limit charges a request to its credential's
   * account only once the credential is one of these, and to its client address before, so a
   * made-up token buys no budget of its own, and ten sign-ins of one account share one budget.
   */
  private vouched = new Map<string, { until: number; account: string }>();

  /** Accounts behind valid tokens, briefly: every authenticated request needs one. */
  private users: TtlCache<string, UserRecord>;
  private verifiedTokens: TtlCache<string, { userId: string; expires: number; version: number; id: string }>;
  /** Tokens signed out, by id, until they expire: told by the bus (every node), read from the table on a cache miss. */
  private revoked = new Map<string, number>();
  /**
   * The signing secret as a key object, made once: given a string, jsonwebtoken first tries to
   * read it as a public key (which throws) on every verification.
   */
  private signingKey: KeyObject;

  constructor(
    private db: Db,
    private bus: EventBus,
    private config: Config,
    limiters: Limiters,
    private apiKeys?: ApiKeyAuthenticator,
  ) {
    this.throttle = new CredentialThrottle(limiters, config.signinThrottle);
    this.users = new TtlCache(config.authCacheMs);
    this.verifiedTokens = new TtlCache(config.authCacheMs);
    this.signingKey = createSecretKey(Buffer.from(config.jwtSecret, 'utf8'));
    bus.subscribe(userChannel, (m) => {
      if (typeof m.revokedToken === 'string') this.noteRevoked(m.revokedToken, Number(m.expires));
      this.forgetUser(String(m.userId));
    });
  }

  /**
   * `version`: the account's tokenVersion; a password change or signing out everywhere raises it,
   * ending older tokens. `jti` names the token, for signing out this one only.
   */
  issueToken(userId: string, anonymous: boolean, version = 0): string {
    return jwt.sign({ anonymous, ver: version }, this.signingKey, {
      algorithm: 'HS256',
      subject: userId,
      jwtid: randomUUID(),
      expiresIn: this.config.jwtExpiresInSeconds,
    });
  }

  /**
   * The account of an e-mail and password, through the credential throttle (sign-in and Basic
   * count together). A wrong e-mail and a wrong password cost the same bcrypt comparison and give
   * the same 401.
   */
  checkPassword(email: string, password: string, clientIp: string, device: string | null = null): Promise<UserRecord> {
    return this.throttle.check({ account: email, source: clientIp, device }, async () => {
      const user = await this.db.user.findUnique({ where: { email } });
      const ok = await bcrypt.compare(password, user?.password ?? decoyHash);
      if (!user || !ok || user.deletedAt) throw new CredentialRejected('wrong e-mail or password');
      return user;
    });
  }

  /** Cached copies of the account (and tokens verified against it) are dropped here and on every node. */
  async accountChanged(userId: string) {
    this.forgetUser(userId);
    await this.bus.publish(userChannel, { userId });
  }

  /** One token of the account ends, here and (through the bus) on every node. */
  async tokenRevoked(userId: string, tokenId: string, expires: number) {
    this.noteRevoked(tokenId, expires);
    await this.bus.publish(userChannel, { userId, revokedToken: tokenId, expires });
  }

  /** Runs a check of a secret through the credential throttle: its failures count against `key`. */
  throttled<T>(key: Attempt, check: () => Promise<T>): Promise<T> {
    return this.throttle.check(key, check);
  }

  /** A signed link token (e-mail verification): for `audience` only, about `subject`. */
  signLink(claims: Record<string, unknown>, options: { audience: string; subject: string; expiresInSeconds: number }): string {
    return jwt.sign(claims, this.signingKey, { algorithm: 'HS256', audience: options.audience, subject: options.subject, expiresIn: options.expiresInSeconds });
  }

  /** The claims of a link token made by `signLink` for `audience`; throws when it is not one, or expired. */
  verifyLink(token: string, audience: string): jwt.JwtPayload {
    return jwt.verify(token, this.signingKey, { algorithms: ['HS256'], audience }) as jwt.JwtPayload;
  }

  private noteRevoked(id: string, expires: number) {
    const now = Date.now();
    if (this.revoked.size >= 10_000) for (const [key, until] of this.revoked) if (until <= now) this.revoked.delete(key);
    this.revoked.set(id, expires);
  }

  /**
   * Resolves an Authorization header (Basic, JWT or Bearer) to a principal; invalid ones throw 401,
   * and 429 while the credential throttle makes the client wait. `clientIp` is the client address.
   */
  async authenticate(header: string | null, clientIp: string): Promise<Principal | null> {
    if (!header) return null;
    const [scheme, ...rest] = header.trim().split(/\s+/);
    const credential = rest.join(' ');
    if (!credential) throw unauthenticated('malformed Authorization header');
    switch (scheme.toLowerCase()) {
      case 'bearer':
        if (this.apiKeys?.isKey(credential)) return this.fromApiKey(credential, clientIp);
        return this.fromToken(credential, clientIp);
      case 'jwt':
        return this.fromToken(credential, clientIp);
      case 'basic':
        return this.fromBasic(credential, clientIp);
      default:
        throw unauthenticated('unsupported Authorization scheme; use Basic, JWT or Bearer');
    }
  }

  /**
   * The account `credential` (what follows the scheme in an Authorization header) stands for
   * (`user:<id>`, `bot:<id>`, `key:<id>`) while it is one that verified here; null otherwise.
   */
  accountOf(credential: string, now = Date.now()): string | null {
    const vouched = this.vouched.get(credential);
    return vouched !== undefined && vouched.until > now ? vouched.account : null;
  }

  private vouch(credential: string, until: number, account: string) {
    if (this.vouched.size >= 100_000) this.vouched.clear();
    this.vouched.set(credential, { until, account });
  }

  /**
   * Tokens are verified before any counter is read (nobody guesses their keys, and a valid one must
   * not wait on Redis); one with a bad signature counts as a failed credential check.
   */
  private async fromToken(token: string, clientIp: string): Promise<Principal> {
    // Verifying a signature builds a key each time: a token already verified is reused until it
    // expires. Only user tokens are remembered, so a hit never needs the bot check below.
    const known = this.verifiedTokens.get(token);
    if (known && known.expires > Date.now()) {
      if (this.revoked.has(known.id)) throw unauthenticated(signedOut);
      return this.principalFor(known.userId, known.version, { id: known.id, expires: known.expires });
    }
    const botId = claimedBotId(token);
    if (botId) {
      return this.throttle.check({ account: `bot:${botId}`, source: clientIp }, () => this.fromBotToken(token, botId), 'verify-first');
    }
    const claims = await this.throttle.check({ account: null, source: clientIp }, () => this.verifyToken(token), 'verify-first');
    const userId = String(claims.sub);
    const expires = (claims.exp ?? Infinity) * 1000;
    // Tokens from before versions existed carry none: they belong to version 0.
    const version = typeof claims.ver === 'number' ? claims.ver : 0;
    const id = typeof claims.jti === 'string' ? claims.jti : createHash('sha256').update(token).digest('base64url');
    if (this.revoked.has(id)) throw unauthenticated(signedOut);
    // The account and the token's revocation, in one read.
    const generation = this.forgotten;
    const account = await readAccount(this.db, userId, id);
    if (account.revoked) {
      this.noteRevoked(id, expires);
      throw unauthenticated(signedOut);
    }
    this.verifiedTokens.set(token, { userId, expires, version, id });
    this.vouch(token, expires, accountKey.user(userId));
    return this.principalFor(userId, version, { id, expires }, { user: account.user, generation });
  }

  /** A project API key (the key service counts failed checks against the key's id and the address, as for passwords). */
  private async fromApiKey(credential: string, clientIp: string): Promise<Principal> {
    const principal = await this.apiKeys!.authenticate(credential, clientIp);
    this.vouch(credential, Date.now() + basicCacheMs, accountKey.of(principal));
    return principal;
  }

  private verifyToken(token: string): jwt.JwtPayload {
    try {
      return jwt.verify(token, this.signingKey, { algorithms: ['HS256'] }) as jwt.JwtPayload;
    } catch (error) {
      throw tokenError(error, token);
    }
  }

  /** A bot token is signed with that bot's own secret, so deleting the bot ends it. */
  private async fromBotToken(token: string, botId: string): Promise<Principal> {
    const bot = await this.db.bot.findUnique({ where: { id: botId } });
    if (!bot || bot.trashed) throw new CredentialRejected('invalid token');
    let claims: jwt.JwtPayload;
    try {
      claims = verifyBotToken(token, bot);
    } catch (error) {
      throw tokenError(error, token);
    }
    this.vouch(token, (claims.exp ?? Infinity) * 1000, accountKey.bot(bot.id));
    return { userId: botSender(bot.id), user: botAsUser(bot), anonymous: false, bot: { id: bot.id, projectId: bot.id_project } };
  }

  /** Basic credentials are passwords: each check goes through the throttle, counted with sign-ins. */
  private async fromBasic(credential: string, clientIp: string): Promise<Principal> {
    const digest = createHash('sha256').update(credential).digest('hex');
    const cached = this.basicCache.get(digest);
    if (cached && cached.expires > Date.now()) return this.principalFor(cached.userId);
    const decoded = Buffer.from(credential, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon < 0) throw unauthenticated('malformed Basic credentials');
    const email = decoded.slice(0, colon).trim().toLowerCase();
    const user = await this.checkPassword(email, decoded.slice(colon + 1), clientIp);
    const expires = Date.now() + basicCacheMs;
    if (this.basicCache.size > 10_000) this.basicCache.clear();
    this.basicCache.set(digest, { userId: user.id, expires });
    this.vouch(credential, expires, accountKey.user(user.id));
    return { userId: user.id, user, anonymous: user.anonymous };
  }

  /**
   * `version`: a token's; one older than the account's (the password changed since, or signed out
   * everywhere) is revoked. `read`: the account as the caller read it already, and the count of
   * forgotten accounts when it did.
   */
  private async principalFor(
    userId: string,
    version?: number,
    token?: Principal['token'],
    read?: { user: UserRecord | null; generation: number },
  ): Promise<Principal> {
    let user = this.users.get(userId);
    if (!user) {
      const generation = read?.generation ?? this.forgotten;
      const found = read !== undefined ? read.user : (await readAccount(this.db, userId)).user;
      if (!found || found.deletedAt) throw unauthenticated('the account of this token no longer exists');
      user = found;
      // An account forgotten while it was being read (changed on some node meanwhile) may have been
      // read as it was before: it is used for this request, not kept.
      if (generation === this.forgotten) this.users.set(userId, user);
    }
    if (version !== undefined && version !== user.tokenVersion) {
      throw unauthenticated('token revoked: the account signed out everywhere or its password changed; sign in again');
    }
    return { userId: user.id, user, anonymous: user.anonymous, ...(token ? { token } : {}) };
  }

  private forgetUser(userId: string) {
    this.forgotten++;
    this.users.delete(userId);
    this.basicCache.clear();
  }
}
