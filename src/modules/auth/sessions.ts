import { z } from 'zod';
import type { Config } from '../../config.js';
import { badInput, forbidden, notFound, parseInput, unauthenticated } from '../../errors.js';
import type { Db } from '../../infra/database.js';
import type { EventLog } from '../../infra/event-log.js';
import { isUniqueViolation } from '../../infra/database-errors.js';
import { deviceCookie, trustedDevice } from './device-cookie.js';
import { readCustomToken, verifyCustomToken, type ExternalUserClaims } from './custom-token.js';
import { membershipChannel } from './channels.js';
import type { Credentials } from './credentials.js';
import type { Principal, UserRecord } from './principal.js';

// Sessions: signing in (password, anonymous visitor, a project site's custom token) and out (one
// token, or every token of the account). The tokens are the credentials' (credentials.ts).

const signinInput = z.object({
  email: z.string().trim().toLowerCase().min(1),
  password: z.string().min(1),
});

const anonymousInput = z.object({
  id_project: z.string().min(1),
  firstname: z.string().trim().max(100).default('Guest'),
});

export class Sessions {
  constructor(
    private db: Db,
    private events: EventLog,
    private config: Config,
    private credentials: Credentials,
    /** The projects' state (src/modules/projects): visitors do not sign in to a disabled or deleted project. */
    private projects: { assertOpen(projectId: string): Promise<{ id: string }> },
  ) {}

  /**
   * `cookies`: the Cookie header, where a browser that signed in to this account before has its
   * device cookie (see device-cookie.ts). The answer's `deviceCookie` is the value to set: the same
   * device, or a new one, now trusted for the account.
   */
  async signin(input: unknown, clientIp: string, cookies: string | null = null) {
    const data = parseInput(signinInput, input);
    const device = trustedDevice(this.config.jwtSecret, data.email, cookies);
    const user = await this.credentials.checkPassword(data.email, data.password, clientIp, device);
    const deviceCookieValue = deviceCookie(this.config.jwtSecret, data.email, device ?? undefined);
    return { success: true, token: `JWT ${this.credentials.issueToken(user.id, false, user.tokenVersion)}`, user, deviceCookie: deviceCookieValue };
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
    return { success: true, token: `JWT ${this.credentials.issueToken(user.id, true)}`, user };
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
    const claims = await this.credentials.throttled({ account: `project:${projectId}`, source: clientIp }, async () => {
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
    return { success: true, token: `JWT ${this.credentials.issueToken(user.id, false, user.tokenVersion)}`, user: { ...user, email } };
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
      await this.credentials.accountChanged(user.id);
      await this.events.bus.publish(membershipChannel, { projectId, userId: user.id });
    }
    return { user, email };
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
    await this.credentials.tokenRevoked(principal.userId, token.id, expiresAt.getTime());
    return { success: true };
  }

  /** Ends every token of the caller's account, on every node (as a password change does). */
  async signOutEverywhere(principal: Principal) {
    this.sessionToken(principal);
    await this.db.user.update({ where: { id: principal.userId }, data: { tokenVersion: { increment: 1 } } });
    await this.credentials.accountChanged(principal.userId);
    return { success: true };
  }

  /** The token a sign-out ends: bots, API keys and Basic credentials are no session. */
  private sessionToken(principal: Principal) {
    if (principal.bot || principal.apiKey) throw forbidden('only a signed-in token can sign out; revoke API keys and bots where they were made');
    if (!principal.token) throw badInput('authorization', 'authorization: sign-out ends a token (`JWT <token>`); Basic credentials are a password');
    return principal.token;
  }
}
