import bcrypt from 'bcryptjs';
import type jwt from 'jsonwebtoken';
import { z } from 'zod';
import type { Config } from '../../config.js';
import { badInput, conflict, forbidden, parseInput } from '../../errors.js';
import type { Db } from '../../infra/database.js';
import type { EventLog } from '../../infra/event-log.js';
import { cuid } from '../../infra/ids.js';
import { isUniqueViolation } from '../../infra/database-errors.js';
import { membershipChannel } from './channels.js';
import { resetPurpose, secretDigest, type AccountMail } from './account-mail.js';
import type { Credentials } from './credentials.js';
import type { Principal, UserRecord } from './principal.js';
import { CredentialRejected } from './throttle.js';

// Accounts: signing up, e-mail verification, passwords (change and reset), the profile, deletion.
// Each change drops the cached account on every node (credentials.ts).

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

export class Accounts {
  constructor(
    private db: Db,
    private events: EventLog,
    private config: Config,
    private credentials: Credentials,
    private mail?: AccountMail,
  ) {}

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
    return this.credentials.signLink({ email: user.email }, {
      audience: verificationAudience,
      subject: user.id,
      expiresInSeconds: Math.max(1, Math.floor(this.config.email.verificationTtlMs / 1000)),
    });
  }

  /** Sets `emailverified` from a verification link's token; 400 naming `token` when it is not one. */
  async verifyEmail(input: unknown) {
    const data = parseInput(verifyInput, input);
    let claims: jwt.JwtPayload;
    try {
      claims = this.credentials.verifyLink(data.token, verificationAudience);
    } catch {
      throw badInput('token', 'token: is invalid or expired');
    }
    const user = await this.db.user.findUnique({ where: { id: String(claims.sub) } });
    if (!user || user.deletedAt || user.email !== claims.email) throw badInput('token', 'token: is invalid or expired');
    const saved = user.emailverified ? user : await this.db.user.update({ where: { id: user.id }, data: { emailverified: true } });
    await this.credentials.accountChanged(user.id);
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
      await this.credentials.checkPassword(user.email, data.oldpassword, clientIp);
    } catch (error) {
      // The caller is signed in: a wrong current password is a bad field, not a failed sign-in (401).
      if (error instanceof CredentialRejected) throw badInput('oldpassword', 'oldpassword: is not the current password');
      throw error;
    }
    const saved = await this.setPassword(user.id, data.newpassword, false);
    return { success: true, token: `JWT ${this.credentials.issueToken(saved.id, false, saved.tokenVersion)}`, user: saved };
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
    return { success: true, token: `JWT ${this.credentials.issueToken(saved.id, false, saved.tokenVersion)}`, user: saved };
  }

  private async setPassword(userId: string, password: string, verified: boolean) {
    const hash = await bcrypt.hash(password, this.config.bcryptRounds);
    const saved = await this.db.user.update({
      where: { id: userId },
      data: { password: hash, tokenVersion: { increment: 1 }, ...(verified ? { emailverified: true } : {}) },
    });
    await this.credentials.accountChanged(userId);
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
    await this.credentials.accountChanged(user.id);
    for (const projectId of projects) await this.events.bus.publish(membershipChannel, { projectId, userId: user.id });
    return saved;
  }

  /** The caller's own account; bots, API keys and anonymous users have no password or mailbox here. */
  private personal(principal: Principal): UserRecord {
    if (principal.bot || principal.apiKey || principal.anonymous) throw forbidden('only a person\'s account can do this');
    return principal.user;
  }

  /** Deleting an account ends every credential at once, here and (through the bus) on every node. */
  async deleteAccount(userId: string) {
    await this.db.user.update({ where: { id: userId }, data: { deletedAt: new Date(), email: null } });
    await this.credentials.accountChanged(userId);
  }

  /** A session token for an account made here (an invitation's sign-up answers one). */
  issueToken(userId: string, anonymous: boolean, version?: number): string {
    return this.credentials.issueToken(userId, anonymous, version);
  }
}
