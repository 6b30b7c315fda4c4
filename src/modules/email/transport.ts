import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import nodemailer, { type Transporter } from 'nodemailer';
import type { Logger } from '../../infra/logger.js';

// Where messages go: an SMTP server through nodemailer (SMTP_URL), or, with nothing configured,
// one .eml file per message under DATA_DIR/outbox, so a newcomer can open what would have been sent.

export interface OutgoingMail {
  to: string[];
  subject: string;
  text: string;
  html?: string;
  replyTo?: string;
  /** The project a message is sent for (shown in logs). */
  projectId?: string;
}

export interface MailTransport {
  /** Sends one message; SMTP errors are thrown as nodemailer gives them (`responseCode`, `code`). */
  send(mail: OutgoingMail): Promise<void>;
  close(): void;
}

export class SmtpTransport implements MailTransport {
  private transporter: Transporter;

  constructor(
    smtpUrl: string,
    private from: string,
  ) {
    // One connection per message (add ?pool=true to SMTP_URL to keep connections open).
    this.transporter = nodemailer.createTransport(smtpUrl);
  }

  async send(mail: OutgoingMail) {
    await this.transporter.sendMail({ from: this.from, to: mail.to, subject: mail.subject, text: mail.text, html: mail.html, replyTo: mail.replyTo });
  }

  close() {
    this.transporter.close();
  }
}

export class OutboxTransport implements MailTransport {
  // nodemailer builds the same MIME message it would send, without any network.
  private composer = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  private sequence = 0;

  constructor(
    private dir: string,
    private from: string,
    private logger: Logger,
  ) {}

  async send(mail: OutgoingMail) {
    const info = await this.composer.sendMail({ from: this.from, to: mail.to, subject: mail.subject, text: mail.text, html: mail.html, replyTo: mail.replyTo });
    await mkdir(this.dir, { recursive: true });
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    const file = path.join(this.dir, `${stamp}-${process.pid}-${++this.sequence}.eml`);
    await writeFile(file, info.message as Buffer, { mode: 0o600 });
    this.logger.info({ to: mail.to, subject: mail.subject, file }, 'e-mail written to the outbox (SMTP_URL not set)');
  }

  close() {}
}

/**
 * True for a failure retrying cannot fix: the server refused the message or a recipient for good
 * (5xx replies, including a refused login). Connection failures and 4xx replies are temporary.
 */
export function isPermanentSmtpFailure(error: unknown): boolean {
  const code = (error as { responseCode?: unknown } | null)?.responseCode;
  return typeof code === 'number' && code >= 500 && code < 600;
}
