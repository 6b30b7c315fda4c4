import { z } from 'zod';
import type { Config } from '../../config.js';
import { jobType, PermanentJobError, type JobDefinition, type JobOutput, type JobQueue } from '../../infra/job-queue.js';
import type { Logger } from '../../infra/logger.js';
import { isPermanentSmtpFailure, OutboxTransport, SmtpTransport, type MailTransport, type OutgoingMail } from './transport.js';

// Every message goes through the job queue (BullMQ with Redis): a slow or absent SMTP server never
// holds up a request, temporary failures are retried with backoff, permanent ones end the job.

export const emailJobData = z.object({
  to: z.array(z.string().email()).min(1),
  subject: z.string().min(1),
  text: z.string(),
  html: z.string().optional(),
  replyTo: z.string().email().optional(),
  projectId: z.string().optional(),
});

/** One message to send: it carries the rendered message, since what it says was decided when it was queued. */
export const emailJob = jobType('email.send', emailJobData);

export class Mailer {
  private transport: MailTransport;
  /** Messages that failed for good since start (also logged, with recipients and subject). */
  permanentFailures = 0;

  constructor(
    private queue: JobQueue,
    private config: Config,
    private logger: Logger,
  ) {
    const { smtpUrl, from, outboxDir } = config.email;
    this.transport = smtpUrl ? new SmtpTransport(smtpUrl, from) : new OutboxTransport(outboxDir, from, logger);
  }

  /** Queues a message. `jobId` makes queuing idempotent (a notification read twice from the log). */
  async send(mail: OutgoingMail, options: { jobId?: string } = {}) {
    await this.queue.enqueue(emailJob, { ...mail }, options);
  }

  /** The job's work: one attempt at sending. */
  async deliver(mail: JobOutput<typeof emailJob>, attempt: number) {
    try {
      await this.transport.send(mail);
    } catch (error) {
      const detail = { to: mail.to, subject: mail.subject, project: mail.projectId, attempt, err: (error as Error).message };
      if (isPermanentSmtpFailure(error)) {
        this.permanentFailures++;
        this.logger.error(detail, 'e-mail not delivered: the SMTP server refused it for good (not retried)');
        throw new PermanentJobError((error as Error).message);
      }
      const last = attempt >= this.config.email.attempts;
      this.logger[last ? 'error' : 'warn'](detail, last ? 'e-mail not delivered after the last attempt' : 'e-mail attempt failed; retrying');
      throw error;
    }
  }

  /** The queue's definition of the send job; workers/jobs.ts registers it. */
  jobDefinition(): JobDefinition<typeof emailJob> {
    return {
      job: emailJob,
      attempts: this.config.email.attempts,
      // 1 s, 2 s, 4 s ... at most 10 minutes: an SMTP server back within the hour still gets the message.
      backoffMs: (attempt) => Math.min(1000 * 2 ** (attempt - 1), 600_000),
      concurrency: 4,
      process: (data, job) => this.deliver(data, job.attempt),
    };
  }

  close() {
    this.transport.close();
  }
}
