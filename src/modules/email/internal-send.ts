import { RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { z } from 'zod';
import { AppError, badInput, notFound, parseInput } from '../../errors.js';
import type { Db } from '../../infra/database.js';
import type { Limiters } from '../../infra/rate-limit.js';
import { roleAtLeast, type Role } from '../teammates/roles.js';
import type { TeammateRecord } from '../teammates/service.js';
import type { Mailer } from './mailer.js';
import { internalMail } from './templates.js';

// POST /:project_id/emails/internal/send: a teammate writes to an address, to the members of a
// role (`@admins`) or to a group of the project. Limited per project, so a leaked agent token
// cannot turn the platform into a spam relay.

const sendInput = z.object({
  to: z.string().trim().min(1, 'must be an address, @ and a role (@admins) or a group name').max(320),
  subject: z.string().trim().min(1, 'must not be empty').max(250, 'must be at most 250 characters'),
  text: z.string().min(1, 'must not be empty').max(100_000, 'must be at most 100000 characters'),
  request_id: z.string().min(1).optional(),
  replyto: z.string().trim().email('must be a valid e-mail address').optional(),
});

/** `@admins` means owners and admins: each role word names the members with at least that role. */
const roleWords: Record<string, Role> = {
  owner: 'owner',
  owners: 'owner',
  admin: 'admin',
  admins: 'admin',
  agent: 'agent',
  agents: 'agent',
};

const emailShape = z.string().email();

export class InternalMailService {
  private limit: RateLimiterAbstract;

  constructor(
    private db: Db,
    private mailer: Mailer,
    limiters: Limiters,
    settings: { internalSendLimit: number; internalSendWindowSeconds: number },
  ) {
    this.limit = limiters.counter({ name: 'email-internal', points: settings.internalSendLimit, durationSeconds: settings.internalSendWindowSeconds });
  }

  async send(projectId: string, sender: TeammateRecord, input: unknown) {
    const data = parseInput(sendInput, input);
    const project = await this.db.project.findUnique({ where: { id: projectId }, select: { name: true } });
    if (!project) throw notFound('project');
    let ticket: number | undefined;
    if (data.request_id) {
      const request = await this.db.request.findFirst({ where: { id_project: projectId, request_id: data.request_id }, select: { ticket_id: true } });
      if (!request) throw notFound('request');
      ticket = request.ticket_id;
    }
    const to = await this.recipients(projectId, data.to);
    if (!to.length) throw badInput('to', 'to: names nobody with an e-mail address');
    try {
      await this.limit.consume(projectId);
    } catch (error) {
      if (!(error instanceof RateLimiterRes)) throw error;
      const seconds = Math.max(1, Math.ceil(error.msBeforeNext / 1000));
      throw new AppError('TOO_MANY_REQUESTS', `too many e-mails from this project; retry in ${seconds} s`, { headers: { 'Retry-After': String(seconds) } });
    }
    const senderName = [sender.user.firstname, sender.user.lastname].filter(Boolean).join(' ') || 'a teammate';
    const rendered = internalMail(project.name, senderName, data.text, ticket);
    await this.mailer.send({
      to,
      subject: `${rendered.prefix}${data.subject}`,
      text: rendered.text,
      html: rendered.html,
      replyTo: data.replyto ?? sender.user.email ?? undefined,
      projectId,
    });
    return { queued: true };
  }

  /** The addresses `to` stands for: itself, a role's members, or a group's members (active teammates only). */
  private async recipients(projectId: string, to: string): Promise<string[]> {
    if (to.startsWith('@')) {
      const min = roleWords[to.slice(1).toLowerCase()];
      if (!min) throw badInput('to', `to: ${to} names no role; use @owners, @admins or @agents`);
      const members = await this.db.projectUser.findMany({
        where: { id_project: projectId, trashed: false, status: 'active' },
        select: { role: true, user: { select: { email: true } } },
      });
      return unique(members.filter((m) => roleAtLeast(m.role, min)).map((m) => m.user.email));
    }
    if (emailShape.safeParse(to).success) return [to.toLowerCase()];
    const group = await this.db.group.findFirst({ where: { id_project: projectId, name: to, trashed: false }, select: { members: true } });
    if (!group) throw badInput('to', 'to: is neither an e-mail address, @ and a role, nor a group of the project');
    const members = await this.db.projectUser.findMany({
      where: { id_project: projectId, trashed: false, status: 'active', id_user: { in: group.members } },
      select: { user: { select: { email: true } } },
    });
    return unique(members.map((m) => m.user.email));
  }
}

const unique = (emails: Array<string | null>) => [...new Set(emails.filter((e): e is string => !!e))];
