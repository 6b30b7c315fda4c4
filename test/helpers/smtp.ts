import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { eventually } from './conversations.js';

// A real SMTP server on 127.0.0.1 (smtp-server) whose messages are parsed with mailparser, so
// e-mail tests see what a mailbox would: recipients, subject, text, HTML and links.

export interface ReceivedMail {
  to: string[];
  subject: string;
  text: string;
  html: string;
  from: string;
  replyTo: string;
  /** Every http(s) link in the text part. */
  links: string[];
  parsed: ParsedMail;
}

export interface SmtpSink {
  /** `smtp://127.0.0.1:<port>` for SMTP_URL. */
  url: string;
  received: ReceivedMail[];
  /** RCPT TO attempts per address, accepted or refused. */
  attempts: Map<string, number>;
  /** The reply code to refuse a recipient with (e.g. 550 for good, 451 for now); null accepts. */
  refuse: (address: string, attempt: number) => number | null;
  /** Waits (bounded polling) for a message to `address` matching `match`. */
  mailTo(address: string, match?: (mail: ReceivedMail) => boolean, timeoutMs?: number): Promise<ReceivedMail>;
  close(): Promise<void>;
}

export async function startSmtpSink(): Promise<SmtpSink> {
  const sink: SmtpSink = {
    url: '',
    received: [],
    attempts: new Map(),
    refuse: () => null,
    mailTo: (address, match = () => true, timeoutMs = 10_000) =>
      eventually(async () => sink.received.find((m) => m.to.includes(address.toLowerCase()) && match(m)), timeoutMs),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo(address, _session, callback) {
      const to = address.address.toLowerCase();
      const attempt = (sink.attempts.get(to) ?? 0) + 1;
      sink.attempts.set(to, attempt);
      const code = sink.refuse(to, attempt);
      if (code === null) return callback();
      const error = Object.assign(new Error(`recipient refused (${code})`), { responseCode: code });
      callback(error);
    },
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((parsed) => {
          const text = parsed.text ?? '';
          sink.received.push({
            to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
            subject: parsed.subject ?? '',
            text,
            html: typeof parsed.html === 'string' ? parsed.html : '',
            from: parsed.from?.text ?? '',
            replyTo: parsed.replyTo?.text ?? '',
            links: text.match(/https?:\/\/[^\s<>"]+/g) ?? [],
            parsed,
          });
          callback();
        })
        .catch((error: Error) => callback(error));
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  sink.url = `smtp://127.0.0.1:${(server.server.address() as AddressInfo).port}`;
  return sink;
}

/** The `token` query parameter of a link. */
export const tokenOf = (link: string) => new URL(link).searchParams.get('token')!;
