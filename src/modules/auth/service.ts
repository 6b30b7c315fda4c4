import { createHash, createSecretKey, type KeyObject } from 'node:crypto';
import bcrypt from 'bcryptjs';
import jwt from 'jsonwebtoken';
import { z } from 'zod';
import type { Config } from '../../config.js';
import { AppError, badInput, conflict, forbidden, notFound, parseInput, unauthenticated } from '../../errors.js';
import type { Db } from '../../infra/database.js';
import type { EventLog } from '../../infra/event-log.js';
import type { User } from '../../generated/prisma/client.js';
import { botAsUser, botSender, claimedBotId, verifyBotToken } from '../bots/identity.js';
import { CredentialRejected, CredentialThrottle } from './throttle.js';
import type { Limiters } from '../../infra/rate-limit.js';
import { readCustomToken, verifyCustomToken, type ExternalUserClaims } from './custom-token.js';
import { TtlCache } from '../../infra/ttl-cache.js';
import { cuid } from '../../infra/ids.js';
import { membershipChannel, userChannel } from './channels.js';

export type UserRecord = User;

export interface Principal {
  userId: string;
  user: UserRecord;
  anonymous: boolean;
  /** Set for a bot token: `userId` is then the bot's sender id and `user` a view of the bot. */
  bot?: { id: string; projectId: string };
}

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


const isUniqueViolation = (error: unknown) => {
  const e = error as { code?: string; message?: string; meta?: { code?: string } } | null;
  return e?.code === 'P2002' || e?.meta?.code === '23505' || /unique constraint/i.test(String(e?.message ?? ''));
};

/**
 * The 401 of a token that failed verification. Only a JWT that is not signed with the key counts
 * as a failed credential check: an expired one was genuine, and one that is no JWT at all
 * (`JWT undefined` from a client not signed in yet) guesses nothing.
 */
function tokenError(error: unknown, token: string): AppError {
  if (error instanceof jwt.TokenExpiredError) return unauthenticated('token expired');
  return jwt.decode(token) === null ? unauthenticated('invalid token') : new CredentialRejected('invalid token');
}

export class AuthService {
  private throttle: CredentialThrottle;
  /** Successful Basic credentials, by digest, so each request does not pay a bcrypt comparison. */
  private basicCache = new Map<string, { userId: string; expires: number }>();
  /**
   * Credentials (a token, or a Basic value) that verified here, until they expire: the API rate
   * limit charges a request to its credential only once it is one of these, and to its client
   * address before, so a made-up token buys no budget of its own.
   */
  private vouched = new Map<string, number>();

  /** Accounts behind valid tokens, briefly: every authenticated request needs one. */
  private users: TtlCache<string, UserRecord>;
  private verifiedTokens: TtlCache<string, { userId: string; expires: number }>;
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
  ) {
    this.throttle = new CredentialThrottle(limiters, config.signinThrottle);
    this.users = new TtlCache(config.authCacheMs);
    this.verifiedTokens = new TtlCache(config.authCacheMs);
    this.signingKey = createSecretKey(Buffer.from(config.jwtSecret, 'utf8'));
    events.bus.subscribe(userChannel, (m) => this.forgetUser(String(m.userId)));
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
    if (user.password !== password) throw conflict('email: an account with this e-mail already exists', 'email');
    return user;
  }

  async signin(input: unknown, clientIp: string) {
    const data = parseInput(signinInput, input);
    const user = await this.checkPassword(data.email, data.password, clientIp);
    return { success: true, token: `JWT ${this.issueToken(user.id, false)}`, user };
  }

  /**
   * The account of an e-mail and password, through the credential throttle (sign-in and Basic
   * count together). A wrong e-mail and a wrong password cost the same bcrypt comparison and give
   * the same 401.
   */
  private checkPassword(email: string, password: string, clientIp: string): Promise<UserRecord> {
    return this.throttle.check({ account: email, source: clientIp }, async () => {
      const user = await this.db.user.findUnique({ where: { email } });
      const ok = await bcrypt.compare(password, user?.password ?? decoyHash);
      if (!user || !ok || user.deletedAt) throw new CredentialRejected('wrong e-mail or password');
      return user;
    });
  }

  async signinAnonymously(input: unknown) {
    const data = parseInput(anonymousInput, input);
    const project = await this.db.project.findUnique({ where: { id: data.id_project } });
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
      if (!project.jwtSecret) throw unauthenticated('the project has no secret for custom tokens (POST /v3/:project_id/keys/generate)');
      return verifyCustomToken(claimed, project.jwtSecret);
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
    return { success: true, token: `JWT ${this.issueToken(user.id, false)}`, user: { ...user, email } };
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

  issueToken(userId: string, anonymous: boolean): string {
    return jwt.sign({ anonymous }, this.signingKey, {
      algorithm: 'HS256',
      subject: userId,
      expiresIn: this.config.jwtExpiresInSeconds,
    });
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
      case 'jwt':
      case 'bearer':
        return this.fromToken(credential, clientIp);
      case 'basic':
        return this.fromBasic(credential, clientIp);
      default:
        throw unauthenticated('unsupported Authorization scheme; use Basic, JWT or Bearer');
    }
  }

  /** True while `credential` (what follows the scheme in an Authorization header) is one that verified here. */
  isVouched(credential: string, now = Date.now()): boolean {
    const until = this.vouched.get(credential);
    return until !== undefined && until > now;
  }

  private vouch(credential: string, until: number) {
    if (this.vouched.size >= 100_000) this.vouched.clear();
    this.vouched.set(credential, until);
  }

  /**
   * Tokens are verified before any counter is read (nobody guesses their keys, and a valid one must
   * not wait on Redis); one with a bad signature counts as a failed credential check.
   */
  private async fromToken(token: string, clientIp: string): Promise<Principal> {
    // Verifying a signature builds a key each time: a token already verified is reused until it
    // expires. Only user tokens are remembered, so a hit never needs the bot check below.
    const known = this.verifiedTokens.get(token);
    if (known && known.expires > Date.now()) return this.principalFor(known.userId);
    const botId = claimedBotId(token);
    if (botId) {
      return this.throttle.check({ account: `bot:${botId}`, source: clientIp }, () => this.fromBotToken(token, botId), 'verify-first');
    }
    const claims = await this.throttle.check({ account: null, source: clientIp }, () => this.verifyToken(token), 'verify-first');
    const userId = String(claims.sub);
    const expires = (claims.exp ?? Infinity) * 1000;
    this.verifiedTokens.set(token, { userId, expires });
    this.vouch(token, expires);
    return this.principalFor(userId);
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
    this.vouch(token, (claims.exp ?? Infinity) * 1000);
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
    this.vouch(credential, expires);
    return { userId: user.id, user, anonymous: user.anonymous };
  }

  private async principalFor(userId: string): Promise<Principal> {
    let user = this.users.get(userId);
    if (!user) {
      const found = await this.db.user.findUnique({ where: { id: userId } });
      if (!found || found.deletedAt) throw unauthenticated('the account of this token no longer exists');
      user = found;
      this.users.set(userId, user);
    }
    return { userId: user.id, user, anonymous: user.anonymous };
  }

  /** Deleting an account ends every credential at once, here and (through the bus) on every node. */
  async deleteAccount(userId: string) {
    await this.db.user.update({ where: { id: userId }, data: { deletedAt: new Date(), email: null } });
    this.forgetUser(userId);
    await this.events.bus.publish(userChannel, { userId });
  }

  private forgetUser(userId: string) {
    this.users.delete(userId);
    this.basicCache.clear();
  }
}
