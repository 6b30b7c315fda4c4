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
import { FailureThrottle } from './throttle.js';
import { readCustomToken, verifyCustomToken, type ExternalUserClaims } from './custom-token.js';
import { TtlCache } from '../../infra/ttl-cache.js';

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

/** Bus channel telling every node that an account changed or was deleted. */
const userChannel = 'users.changed';
/** The teammates module's channel: cached memberships (which embed the user) drop on it. */
const membershipChannel = 'memberships.changed';

const isUniqueViolation = (error: unknown) => {
  const e = error as { code?: string; message?: string; meta?: { code?: string } } | null;
  return e?.code === 'P2002' || e?.meta?.code === '23505' || /unique constraint/i.test(String(e?.message ?? ''));
};

export class AuthService {
  private throttle: FailureThrottle;
  /** Successful Basic credentials, by digest, so each request does not pay a bcrypt comparison. */
  private basicCache = new Map<string, { userId: string; expires: number }>();

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
  ) {
    this.throttle = new FailureThrottle(config.signinThrottle.maxFailures, config.signinThrottle.windowSeconds * 1000);
    this.users = new TtlCache(config.authCacheMs);
    this.verifiedTokens = new TtlCache(config.authCacheMs);
    this.signingKey = createSecretKey(Buffer.from(config.jwtSecret, 'utf8'));
    events.bus.subscribe(userChannel, (m) => this.forgetUser(String(m.userId)));
  }

  async signup(input: unknown) {
    const data = parseInput(signupInput, input);
    const existing = await this.db.user.findUnique({ where: { email: data.email } });
    if (existing && !existing.deletedAt) throw conflict('email: an account with this e-mail already exists', 'email');
    const password = await bcrypt.hash(data.password, this.config.bcryptRounds);
    return this.events.transaction(async (tx, emit) => {
      const user = await tx.user.create({
        data: { email: data.email, password, firstname: data.firstname, lastname: data.lastname },
      });
      // Pending invitations to this e-mail become memberships now.
      const invitations = await tx.invitation.findMany({ where: { email: data.email } });
      for (const invitation of invitations) {
        const teammate = await tx.projectUser.create({
          data: {
            id_project: invitation.id_project,
            id_user: user.id,
            role: invitation.role,
            user_available: invitation.user_available,
            createdBy: invitation.createdBy,
          },
        });
        await emit({ projectId: invitation.id_project, name: 'project_user.update', subject: teammate.id });
      }
      await tx.invitation.deleteMany({ where: { email: data.email } });
      return user;
    });
  }

  async signin(input: unknown, clientIp: string) {
    const data = parseInput(signinInput, input);
    const keys = [`email:${data.email}`, `ip:${clientIp}`];
    this.refuseWhileThrottled(keys[0], clientIp);
    const user = await this.db.user.findUnique({ where: { email: data.email } });
    const ok = await bcrypt.compare(data.password, user?.password ?? decoyHash);
    if (!user || !ok || user.deletedAt) {
      keys.forEach((k) => this.throttle.fail(k));
      throw unauthenticated('wrong e-mail or password');
    }
    this.throttle.clear(`email:${data.email}`);
    return { success: true, token: `JWT ${this.issueToken(user.id, false)}`, user };
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
   * 429 while the client address (or `key`) failed too often. One address may be shared by several
   * people (an office behind NAT): it gets four times the limit, one budget for every kind of
   * credential check.
   */
  private refuseWhileThrottled(key: string | null, clientIp: string) {
    const limit = this.throttle.maxFailures;
    const wait = Math.max(key ? this.throttle.retryAfter(key, limit) : 0, this.throttle.retryAfter(`ip:${clientIp}`, limit * 4));
    if (wait > 0) {
      throw new AppError('TOO_MANY_REQUESTS', 'too many failed sign-ins; try again later', {
        headers: { 'Retry-After': String(wait) },
      });
    }
  }

  /**
   * Signs in a user of a project's own site: the Authorization header carries a token the site
   * signed with the project's secret. The user is found or created by the site's `_id` within
   * that project only, with a `user` teammate; names and e-mail follow the latest token.
   */
  async signinWithCustomToken(header: string | null, clientIp: string) {
    this.refuseWhileThrottled(null, clientIp);
    let claims: ExternalUserClaims;
    let projectId: string;
    try {
      const claimed = readCustomToken(header);
      projectId = claimed.projectId;
      const project = await this.db.project.findUnique({ where: { id: projectId }, select: { jwtSecret: true } });
      if (!project) throw badInput('aud', 'aud: names no project');
      if (!project.jwtSecret) throw unauthenticated('the project has no secret for custom tokens (POST /v3/:project_id/keys/generate)');
      claims = verifyCustomToken(claimed, project.jwtSecret);
    } catch (error) {
      if (error instanceof AppError && error.code === 'UNAUTHENTICATED') this.throttle.fail(`ip:${clientIp}`);
      throw error;
    }
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

  /** Resolves an Authorization header (Basic, JWT or Bearer) to a principal; invalid ones throw 401. */
  async authenticate(header: string | null): Promise<Principal | null> {
    if (!header) return null;
    const [scheme, ...rest] = header.trim().split(/\s+/);
    const credential = rest.join(' ');
    if (!credential) throw unauthenticated('malformed Authorization header');
    switch (scheme.toLowerCase()) {
      case 'jwt':
      case 'bearer':
        return this.fromToken(credential);
      case 'basic':
        return this.fromBasic(credential);
      default:
        throw unauthenticated('unsupported Authorization scheme; use Basic, JWT or Bearer');
    }
  }

  async fromToken(token: string): Promise<Principal> {
    // Verifying a signature builds a key each time: a token already verified is reused until it
    // expires. Only user tokens are remembered, so a hit never needs the bot check below.
    const known = this.verifiedTokens.get(token);
    if (known && known.expires > Date.now()) return this.principalFor(known.userId);
    const botId = claimedBotId(token);
    if (botId) return this.fromBotToken(token, botId);
    let claims: jwt.JwtPayload;
    try {
      claims = jwt.verify(token, this.signingKey, { algorithms: ['HS256'] }) as jwt.JwtPayload;
    } catch (error) {
      const expired = error instanceof jwt.TokenExpiredError;
      throw unauthenticated(expired ? 'token expired' : 'invalid token');
    }
    const userId = String(claims.sub);
    this.verifiedTokens.set(token, { userId, expires: (claims.exp ?? Infinity) * 1000 });
    return this.principalFor(userId);
  }

  /** A bot token is signed with that bot's own secret, so deleting the bot ends it. */
  private async fromBotToken(token: string, botId: string): Promise<Principal> {
    const bot = await this.db.bot.findUnique({ where: { id: botId } });
    if (!bot || bot.trashed) throw unauthenticated('invalid token');
    try {
      verifyBotToken(token, bot);
    } catch (error) {
      throw unauthenticated(error instanceof jwt.TokenExpiredError ? 'token expired' : 'invalid token');
    }
    return { userId: botSender(bot.id), user: botAsUser(bot), anonymous: false, bot: { id: bot.id, projectId: bot.id_project } };
  }

  private async fromBasic(credential: string): Promise<Principal> {
    const digest = createHash('sha256').update(credential).digest('hex');
    const cached = this.basicCache.get(digest);
    if (cached && cached.expires > Date.now()) return this.principalFor(cached.userId);
    const decoded = Buffer.from(credential, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon < 0) throw unauthenticated('malformed Basic credentials');
    const email = decoded.slice(0, colon).trim().toLowerCase();
    const password = decoded.slice(colon + 1);
    const user = await this.db.user.findUnique({ where: { email } });
    const ok = await bcrypt.compare(password, user?.password ?? decoyHash);
    if (!user || !ok || user.deletedAt) throw unauthenticated('wrong e-mail or password');
    if (this.basicCache.size > 10_000) this.basicCache.clear();
    this.basicCache.set(digest, { userId: user.id, expires: Date.now() + basicCacheMs });
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
