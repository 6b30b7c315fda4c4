import { createHash, createSecretKey, randomUUID, type KeyObject } from 'node:crypto';
import bcrypt from 'bcryptjs';
import jwt from 'jsonwebtoken';
import { z } from 'zod';
import type { Config } from '../../config.js';
import { AppError, badInput, conflict, forbidden, notFound, parseInput, unauthenticated } from '../../errors.js';
import type { Db } from '../../infra/database.js';
import type { EventLog } from '../../infra/event-log.js';
import type { ProjectUser, User } from '../../generated/prisma/client.js';
import { botAsUser, botSender, claimedBotId, verifyBotToken } from './bot-identity.js';
import { deviceCookie, trustedDevice } from './device-cookie.js';
import { CredentialRejected, CredentialThrottle } from './throttle.js';
import type { Limiters } from '../../infra/rate-limit.js';
import { readCustomToken, verifyCustomToken, type ExternalUserClaims } from './custom-token.js';
import { TtlCache } from '../../infra/ttl-cache.js';
import { cuid } from '../../infra/ids.js';
import { isUniqueViolation } from '../../infra/database-errors.js';
import { membershipChannel, userChannel } from './channels.js';
import { resetPurpose, secretDigest, type AccountMail } from './account-mail.js';
import { readAccount } from './account-read.js';

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

const verificationAudience = 'email-verification';

const changePasswordInput = z.object({
  oldpassword: z.string().min(1, 'is required'),
  newpassword: z.string().min(8, 'must be at least 8 characters').max(128, 'must be at most 128 characters'),
});

const resetRequestInput = z.object({ email: z.string().trim().toLowerCase().email('must be a valid e-mail address') });

const resetInput = z.object({
  token: z.string().min(1, 'is required').max(200),
  password: z.string().min(8, 'must be at least 8 characters').max(128, 'must be at most 128 characters'),
});

const verifyInput = z.object({ token: z.string().min(1, 'is required').max(2000) });

const profileInput = z
  .object({ firstname: z.string().trim().max(100).optional(), lastname: z.string().trim().max(100).optional() })
  .refine((v) => v.firstname !== undefined || v.lastname !== undefined, { message: 'is required (or lastname)', path: ['firstname'] });

const signupInput = z.object({
  email: z.string().trim().toLowerCase().email('must be a valid e-mail address'),
  password: z.string().min(8, 'must be at least 8 characters').max(128, 'must be at most 128 characters'),
  firstname: z.string().trim().max(100).default(''),
  lastname: z.string().trim().max(100).default(''),
});

const signinInput = z.object({
  email: z.string().trim().toLowerCase().min(1),
  password: z.string().min(1),
});

const anonymousInput = z.object({
  id_project: z.string().min(1),
  firstname: z.string().trim().max(100).default('Guest'),
});

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

/** The account a principal acts as, for budgets and caps counted per account rather than per token. */
export const accountKey = {
  user: (userId: string) => `user:${userId}`,
  bot: (botId: string) => `bot:${botId}`,
  apiKey: (keyId: string) => `key:${keyId}`,
  of: (principal: Pick<Principal, 'userId' | 'bot' | 'apiKey'>) =>
    principal.bot ? accountKey.bot(principal.bot.id) : principal.apiKey ? accountKey.apiKey(principal.apiKey.id) : accountKey.user(principal.userId),
};

export class AuthService {
  private throttle: CredentialThrottle;
  /** Successful Basic credentials, by digest, so each request does not pay a bcrypt comparison. */
  private basicCache = new Map<string, { userId: string; expires: number }>();
  /**
   * Credentials (a token, an API key, or a Basic value) that verified here, until they expire,
   * with the account each stands for: the API rate limit charges a request to its credential's
   * account only once the credential is one of these, and to its client address before, so a
   * made-up token buys no budget of its own, and ten sign-ins of one account share one budget.
   */
  /** Accounts forgotten so far (changed here or on another node): a read begun before one is not cached. */
  private forgotten = 0;
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
    private events: EventLog,
    private config: Config,
    limiters: Limiters,
    /** The projects' state (src/modules/projects): visitors do not sign in to a disabled or deleted project. */
    private projects: { assertOpen(projectId: string): Promise<{ id: string }> },
    private mail?: AccountMail,
    private apiKeys?: ApiKeyAuthenticator,
  ) {
    this.throttle = new CredentialThrottle(limiters, config.signinThrottle);
    this.users = new TtlCache(config.authCacheMs);
    this.verifiedTokens = new TtlCache(config.authCacheMs);
    this.signingKey = createSecretKey(Buffer.from(config.jwtSecret, 'utf8'));
    events.bus.subscribe(userChannel, (m) => {
      if (typeof m.revokedToken === 'string') this.noteRevoked(m.revokedToken, Number(m.expires));
      this.forgetUser(String(m.userId));
    });
  }

  /**
   * Creates an account; 409 for a registered e-mail, in the same time as a new one. Both cost one
   * bcrypt hash and run one statement that writes and commits: it inserts the account, or rewrites
   * the holder's row unchanged (a commit that wrote waits for the disk, 8 ms and more on
   * PostgreSQL; a refused insert would not). `password` comes back as the hash just made only when
   * the row is new (hashes are salted). Invitations to the e-mail stay pending: the account joins
   * a project only by accepting one (the server sends no e-mail, so signing up says nothing about
   * any invitation).
   */
  async signup(input: unknown) {
    const data = parseInput(signupInput, input);
    const password = await bcrypt.hash(data.password, this.config.bcryptRounds);
    // The columns without a database default (Prisma fills `id` and `updatedAt` for its own writes).
    const [user] = await this.db.$queryRaw<UserRecord[]>`
      INSERT INTO "User" ("id", "email", "password", "firstname", "lastname", "updatedAt")
      VALUES (${cuid()}, ${data.email}, ${password}, ${data.firstname}, ${data.lastname}, CURRENT_TIMESTAMP)
      ON CONFLICT ("email") DO UPDATE SET "email" = EXCLUDED."email"
      RETURNING *`;
    // Deleting an account clears its e-mail, so only a live account can hold it.
    if (user.password !== password) {
      this.mail?.later(() => this.mail!.sendAccountExists(data.email), 'account exists');
      throw conflict('email: an account with this e-mail already exists', 'email');
    }
    this.mail?.later(() => this.mail!.sendVerification(data.email, this.verificationToken(user)), 'verification');
    return user;
  }

  /**
   * An account made through an invitation link: the link reached the e-mail, so it is verified.
   * 409 when the e-mail has an account (its holder accepts the invitation signed in).
   */
  async signupVerified(input: unknown) {
    const data = parseInput(signupInput, input);
    const password = await bcrypt.hash(data.password, this.config.bcryptRounds);
    try {
      return await this.db.user.create({
        data: { email: data.email, password, firstname: data.firstname, lastname: data.lastname, emailverified: true },
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict('email: an account with this e-mail already exists; sign in and accept the invitation', 'email');
      throw error;
    }
  }

  /** A signed link token for the account's current e-mail; it verifies nothing once the e-mail changes. */
  private verificationToken(user: UserRecord) {
    return jwt.sign({ email: user.email }, this.signingKey, {
      algorithm: 'HS256',
      audience: verificationAudience,
      subject: user.id,
      expiresIn: Math.max(1, Math.floor(this.config.email.verificationTtlMs / 1000)),
    });
  }

  /** Sets `emailverified` from a verification link's token; 400 naming `token` when it is not one. */
  async verifyEmail(input: unknown) {
    const data = parseInput(verifyInput, input);
    let claims: jwt.JwtPayload;
    try {
      claims = jwt.verify(data.token, this.signingKey, { algorithms: ['HS256'], audience: verificationAudience }) as jwt.JwtPayload;
    } catch {
      throw badInput('token', 'token: is invalid or expired');
    }
    const user = await this.db.user.findUnique({ where: { id: String(claims.sub) } });
    if (!user || user.deletedAt || user.email !== claims.email) throw badInput('token', 'token: is invalid or expired');
    const saved = user.emailverified ? user : await this.db.user.update({ where: { id: user.id }, data: { emailverified: true } });
    await this.accountChanged(user.id);
    return { success: true, user: saved };
  }

  /** E-mails the caller a new verification link (nothing when already verified). */
  async resendVerification(principal: Principal) {
    const user = this.personal(principal);
    if (!user.emailverified && user.email) {
      const email = user.email;
      this.mail?.later(() => this.mail!.sendVerification(email, this.verificationToken(user)), 'verification');
    }
    return { success: true, user };
  }

  /**
   * Changes the caller's password, given the current one (checked through the credential
   * throttle). Every token issued before stops working on every node; the answer carries a new one.
   */
  async changePassword(principal: Principal, input: unknown, clientIp: string) {
    const data = parseInput(changePasswordInput, input);
    const user = this.personal(principal);
    if (!user.email) throw forbidden('this account has no password');
    try {
      await this.checkPassword(user.email, data.oldpassword, clientIp);
    } catch (error) {
      // The caller is signed in: a wrong current password is a bad field, not a failed sign-in (401).
      if (error instanceof CredentialRejected) throw badInput('oldpassword', 'oldpassword: is not the current password');
      throw error;
    }
    const saved = await this.setPassword(user.id, data.newpassword, false);
    return { success: true, token: `JWT ${this.issueToken(saved.id, false, saved.tokenVersion)}`, user: saved };
  }

  /** Always `{success: true}`, in the same time whether or not the e-mail has an account. */
  async requestPasswordReset(input: unknown) {
    const data = parseInput(resetRequestInput, input);
    this.mail?.later(async () => {
      const user = await this.db.user.findUnique({ where: { email: data.email } });
      if (user && !user.deletedAt) await this.mail!.sendPasswordReset(user.id, data.email);
    }, 'password reset');
    return { success: true };
  }

  /** Sets a new password with a reset link's secret: once, before it expires; signs out every other session. */
  async resetPassword(input: unknown) {
    const data = parseInput(resetInput, input);
    const tokenHash = secretDigest(data.token);
    const token = await this.db.accountToken.findUnique({ where: { tokenHash } });
    // Claimed by one statement, so two uses at once cannot both pass.
    const { count } = token
      ? await this.db.accountToken.updateMany({ where: { tokenHash, purpose: resetPurpose, usedAt: null, expiresAt: { gt: new Date() } }, data: { usedAt: new Date() } })
      : { count: 0 };
    if (!token || count === 0) throw badInput('token', 'token: is invalid, expired or already used');
    // Following the link proves the mailbox, so the address counts as verified too.
    const saved = await this.setPassword(token.userId, data.password, true);
    return { success: true, token: `JWT ${this.issueToken(saved.id, false, saved.tokenVersion)}`, user: saved };
  }

  private async setPassword(userId: string, password: string, verified: boolean) {
    const hash = await bcrypt.hash(password, this.config.bcryptRounds);
    const saved = await this.db.user.update({
      where: { id: userId },
      data: { password: hash, tokenVersion: { increment: 1 }, ...(verified ? { emailverified: true } : {}) },
    });
    await this.accountChanged(userId);
    return saved;
  }

  /**
   * The caller changes their own name. Each project they belong to logs a project_user.update of
   * their membership (fields `firstname`/`lastname`), so every console following the project sees
   * the new name at once; cached accounts and memberships are dropped on every node.
   */
  async updateProfile(principal: Principal, input: unknown) {
    const user = this.personal(principal);
    const data = parseInput(profileInput, input);
    const fields = Object.keys(data).filter((key) => data[key as keyof typeof data] !== undefined);
    const { saved, projects } = await this.events.transaction(async (tx, emit) => {
      const saved = await tx.user.update({ where: { id: user.id }, data: { firstname: data.firstname, lastname: data.lastname } });
      const memberships = await tx.projectUser.findMany({ where: { id_user: user.id, trashed: false }, select: { id: true, id_project: true } });
      for (const membership of memberships) {
        await emit({ projectId: membership.id_project, name: 'project_user.update', subject: membership.id, payload: { fields } });
      }
      return { saved, projects: memberships.map((m) => m.id_project) };
    });
    await this.accountChanged(user.id);
    for (const projectId of projects) await this.events.bus.publish(membershipChannel, { projectId, userId: user.id });
    return saved;
  }

  /** The caller's own account; bots, API keys and anonymous users have no password or mailbox here. */
  private personal(principal: Principal): UserRecord {
    if (principal.bot || principal.apiKey || principal.anonymous) throw forbidden('only a person\'s account can do this');
    return principal.user;
  }

  /** Cached copies of the account (and tokens verified against it) are dropped here and on every node. */
  private async accountChanged(userId: string) {
    this.forgetUser(userId);
    await this.events.bus.publish(userChannel, { userId });
  }

  /**
   * `cookies`: the Cookie header, where a browser that signed in to this account before has its
   * device cookie (see device-cookie.ts). The answer's `deviceCookie` is the value to set: the same
   * device, or a new one, now trusted for the account.
   */
  async signin(input: unknown, clientIp: string, cookies: string | null = null) {
    const data = parseInput(signinInput, input);
    const device = trustedDevice(this.config.jwtSecret, data.email, cookies);
    const user = await this.checkPassword(data.email, data.password, clientIp, device);
    const deviceCookieValue = deviceCookie(this.config.jwtSecret, data.email, device ?? undefined);
    return { success: true, token: `JWT ${this.issueToken(user.id, false, user.tokenVersion)}`, user, deviceCookie: deviceCookieValue };
  }

  /**
   * The account of an e-mail and password, through the credential throttle (sign-in and Basic
   * count together). A wrong e-mail and a wrong password cost the same bcrypt comparison and give
   * the same 401.
   */
  private checkPassword(email: string, password: string, clientIp: string, device: string | null = null): Promise<UserRecord> {
    return this.throttle.check({ account: email, source: clientIp, device }, async () => {
      const user = await this.db.user.findUnique({ where: { email } });
      const ok = await bcrypt.compare(password, user?.password ?? decoyHash);
      if (!user || !ok || user.deletedAt) throw new CredentialRejected('wrong e-mail or password');
      return user;
    });
  }

  async signinAnonymously(input: unknown) {
    const data = parseInput(anonymousInput, input);
    // A deleted project answers 404, a disabled one 403 (visitors included).
    const project = await this.projects.assertOpen(data.id_project);
    if (!project) throw notFound('project');
    const user = await this.events.transaction(async (tx, emit) => {
      const created = await tx.user.create({ data: { firstname: data.firstname, anonymous: true } });
      const teammate = await tx.projectUser.create({
        data: {
          id_project: project.id,
          id_user: created.id,
          role: 'guest',
          isAuthenticated: false,
          user_available: false,
          createdBy: created.id,
        },
      });
      await emit({ projectId: project.id, name: 'project_user.invite', subject: teammate.id });
      return created;
    });
    return { success: true, token: `JWT ${this.issueToken(user.id, true)}`, user };
  }

  /**
   * Signs in a user of a project's own site: the Authorization header carries a token the site
   * signed with the project's secret. The user is found or created by the site's `_id` within
   * that project only, with a `user` teammate; names and e-mail follow the latest token.
   */
  async signinWithCustomToken(header: string | null, clientIp: string) {
    const claimed = readCustomToken(header);
    const projectId = claimed.projectId;
    // The project's secret is what a forger guesses: failures count per project and address.
    const claims = await this.throttle.check({ account: `project:${projectId}`, source: clientIp }, async () => {
      const project = await this.db.project.findUnique({ where: { id: projectId }, select: { jwtSecret: true } });
      if (!project) throw badInput('aud', 'aud: names no project');
      await this.projects.assertOpen(projectId);
      if (!project.jwtSecret) throw unauthenticated('the project has no secret for custom tokens (POST /v3/:project_id/keys/generate)');
      return verifyCustomToken(claimed, project.jwtSecret, this.config.customTokenClockToleranceSeconds);
    });
    let signedIn: { user: UserRecord; email: string | null };
    try {
      signedIn = await this.externalUser(projectId, claims);
    } catch (error) {
      // Two first sign-ins of one user at once: the second finds what the first created.
      if (!isUniqueViolation(error)) throw error;
      signedIn = await this.externalUser(projectId, claims);
    }
    const { user, email } = signedIn;
    return { success: true, token: `JWT ${this.issueToken(user.id, false, user.tokenVersion)}`, user: { ...user, email } };
  }

  /**
   * The site's user and their teammate, found or created. A claim the token leaves out keeps its
   * stored value. The e-mail is the site's word about its user, so it is kept on the teammate of
   * that project only: an account's own e-mail is unique across projects and is what password
   * sign-in and invitations go by, so a site must not be able to take one.
   */
  private async externalUser(projectId: string, claims: ExternalUserClaims) {
    const { user, email, changed } = await this.events.transaction(async (tx, emit) => {
      const where = { externalProject_externalId: { externalProject: projectId, externalId: claims._id } };
      let user = await tx.user.findUnique({ where });
      if (user?.deletedAt) throw unauthenticated('the account of this user was deleted');
      let changed = false;
      if (!user) {
        user = await tx.user.create({
          data: { firstname: claims.firstname ?? '', lastname: claims.lastname ?? '', externalProject: projectId, externalId: claims._id },
        });
      } else {
        const names = { firstname: claims.firstname ?? user.firstname, lastname: claims.lastname ?? user.lastname };
        if (names.firstname !== user.firstname || names.lastname !== user.lastname) {
          user = await tx.user.update({ where: { id: user.id }, data: names });
          changed = true;
        }
      }
      const teammate = await tx.projectUser.findUnique({
        where: { id_project_id_user: { id_project: projectId, id_user: user.id } },
      });
      if (!teammate) {
        const created = await tx.projectUser.create({
          data: {
            id_project: projectId,
            id_user: user.id,
            role: 'user',
            isAuthenticated: true,
            user_available: false,
            attributes: claims.email ? { email: claims.email } : {},
            createdBy: user.id,
          },
        });
        await emit({ projectId, name: 'project_user.invite', subject: created.id });
        return { user, email: claims.email ?? null, changed };
      }
      // An admin's removal stands: the site signing the user in again does not undo it.
      if (teammate.trashed) throw forbidden('this user was removed from the project');
      const attributes = teammate.attributes as Record<string, unknown>;
      if (claims.email && attributes.email !== claims.email) {
        await tx.projectUser.update({ where: { id: teammate.id }, data: { attributes: { ...attributes, email: claims.email } } });
        changed = true;
      }
      if (changed) await emit({ projectId, name: 'project_user.update', subject: teammate.id });
      const email = claims.email ?? (typeof attributes.email === 'string' ? attributes.email : null);
      return { user, email, changed };
    });
    if (changed) {
      this.forgetUser(user.id);
      await this.events.bus.publish(userChannel, { userId: user.id });
      await this.events.bus.publish(membershipChannel, { projectId, userId: user.id });
    }
    return { user, email };
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
   * Ends the calling token, here and on every node (the bus tells them; a node that missed it reads
   * the table once its cached verification expires). Other sessions of the account go on.
   */
  async signOut(principal: Principal) {
    const token = this.sessionToken(principal);
    const expiresAt = new Date(Number.isFinite(token.expires) ? token.expires : Date.now() + this.config.jwtExpiresInSeconds * 1000);
    await this.db.revokedToken.upsert({ where: { id: token.id }, create: { id: token.id, userId: principal.userId, expiresAt }, update: {} });
    // Tokens past their expiry are refused by their signature's check anyway.
    await this.db.revokedToken.deleteMany({ where: { expiresAt: { lt: new Date() } } });
    this.noteRevoked(token.id, expiresAt.getTime());
    await this.events.bus.publish(userChannel, { userId: principal.userId, revokedToken: token.id, expires: expiresAt.getTime() });
    return { success: true };
  }

  /** Ends every token of the caller's account, on every node (as a password change does). */
  async signOutEverywhere(principal: Principal) {
    this.sessionToken(principal);
    await this.db.user.update({ where: { id: principal.userId }, data: { tokenVersion: { increment: 1 } } });
    await this.accountChanged(principal.userId);
    return { success: true };
  }

  /** The token a sign-out ends: bots, API keys and Basic credentials are no session. */
  private sessionToken(principal: Principal) {
    if (principal.bot || principal.apiKey) throw forbidden('only a signed-in token can sign out; revoke API keys and bots where they were made');
    if (!principal.token) throw badInput('authorization', 'authorization: sign-out ends a token (`JWT <token>`); Basic credentials are a password');
    return principal.token;
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
    read?: { user: User | null; generation: number },
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

  /** Deleting an account ends every credential at once, here and (through the bus) on every node. */
  async deleteAccount(userId: string) {
    await this.db.user.update({ where: { id: userId }, data: { deletedAt: new Date(), email: null } });
    this.forgetUser(userId);
    await this.events.bus.publish(userChannel, { userId });
  }

  private forgetUser(userId: string) {
    this.forgotten++;
    this.users.delete(userId);
    this.basicCache.clear();
  }
}
