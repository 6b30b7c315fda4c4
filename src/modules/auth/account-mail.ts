import { createHash, randomBytes } from 'node:crypto';
import type { Config } from '../../config.js';
import type { Db } from '../../infra/database.js';
import type { Logger } from '../../infra/logger.js';
import type { Mailer } from '../email/mailer.js';
import { passwordResetMail, verificationMail } from '../email/templates.js';

// The links account e-mails carry. A reset link is a random secret kept only as its SHA-256, used
// once; a verification link is a signed token (made by the auth service), so signing up writes
// nothing more for a new account than for a taken e-mail.

export const resetPurpose = 'password_reset';

export const secretDigest = (secret: string) => createHash('sha256').update(secret).digest('hex');

export class AccountMail {
  constructor(
    private db: Db,
    private mailer: Mailer,
    private config: Config,
    private logger: Logger,
  ) {}

  /** A console page (src/web/serve.ts serves /console/*; the client routes it) with the link's token. */
  private link(page: string, token: string) {
    return `${this.config.email.publicUrl}/console/${page}?token=${encodeURIComponent(token)}`;
  }

  async sendVerification(email: string, token: string) {
    await this.mailer.send({ to: [email], ...verificationMail(this.link('verify-email', token)) });
  }

  /** Someone signed up with an e-mail that has an account: its holder is told, nothing is created. */
  async sendAccountExists(email: string) {
    const link = `${this.config.email.publicUrl}/console/forgot-password`;
    await this.mailer.send({
      to: [email],
      subject: 'You already have an account',
      text: `Someone tried to create an account with this e-mail, which already has one.\n\nForgot your password? ${link}`,
    });
  }

  /** Makes a single-use reset secret for the account and e-mails its link. */
  async sendPasswordReset(userId: string, email: string) {
    const secret = randomBytes(32).toString('base64url');
    await this.db.accountToken.create({
      data: { userId, purpose: resetPurpose, tokenHash: secretDigest(secret), expiresAt: new Date(Date.now() + this.config.email.passwordResetTtlMs) },
    });
    const minutes = Math.round(this.config.email.passwordResetTtlMs / 60_000);
    await this.mailer.send({ to: [email], ...passwordResetMail(this.link('reset-password', secret), minutes) });
  }

  /** Runs a mail's work after the answer, so its cost does not tell whether an account exists. */
  later(work: () => Promise<void>, what: string) {
    void work().catch((error) => this.logger.error({ err: (error as Error).message }, `${what} e-mail not queued`));
  }
}
