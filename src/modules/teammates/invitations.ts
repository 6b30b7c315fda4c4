import { createHash, createHmac } from 'node:crypto';
import { z } from 'zod';
import { conflict, notFound, parseInput } from '../../errors.js';
import type { Db, Tx } from '../../infra/database.js';
import type { EventLog } from '../../infra/event-log.js';
import type { Invitation } from '../../generated/prisma/client.js';
import { listingInput, pageOf } from '../../paging.js';
import type { Principal, UserRecord } from '../auth/principal.js';
import type { TeammateRecord } from './record.js';

// An invitation is addressed to an e-mail and stays pending until the holder of the account with
// that e-mail accepts it. Inviting never looks at accounts: the answer, its timing and the event it
// logs are the same whether or not the e-mail has one, and nobody joins a project without consent.

const inviteInput = z.object({
  email: z.string().trim().toLowerCase().email('must be a valid e-mail address'),
  role: z.enum(['admin', 'agent'], { message: 'must be admin or agent' }),
  firstname: z.string().trim().max(100).optional(),
  lastname: z.string().trim().max(100).optional(),
  user_available: z.boolean().default(true),
});

const signupInput = z.object({ token: z.string().min(1, 'is required').max(200) });

/** What signing up through an invitation link needs of the accounts (the auth service). */
export interface InviteeAccounts {
  signupVerified(input: unknown): Promise<UserRecord>;
  issueToken(userId: string, anonymous: boolean, version?: number): string;
}

const linkDigest = (secret: string) => createHash('sha256').update(secret).digest('hex');

/**
 * The secret of an invitation's accept link, derived from the server's secret and the invitation's
 * id and version (a second invitation to the same e-mail is a new version, so a new link): the
 * e-mail listener (src/modules/email) writes the link from the saved invitation, after the commit,
 * and only its digest is kept to check the link.
 */
export function invitationLinkSecret(key: string, invitation: Pick<Invitation, 'id' | 'v'>) {
  return createHmac('sha256', key).update(`invitation-link\u0000${invitation.id}\u0000${invitation.v}`).digest('base64url');
}

const listInput = listingInput(['createdAt', 'updatedAt', 'email'], 'createdAt');

export interface InviteOutcome {
  success: boolean;
  /** Always true: an invitation waits for the invitee's consent. */
  pending: boolean;
  message: string;
  /** Always null (kept for existing clients): the teammate exists only once the invitee accepts. */
  project_user: TeammateRecord | null;
  invitation: Invitation;
}

const withUser = { user: true } as const;

export class InvitationService {
  constructor(
    private db: Db,
    private events: EventLog,
    private membershipChanged: (projectId: string, userId: string) => Promise<void>,
    /** Signs the accept links (`invitationLinkSecret`). */
    private linkKey: string,
  ) {}

  /**
   * Invites an e-mail (a second invitation to it replaces role and availability). An e-mail that is
   * already an active teammate of the project is a 409: the inviter can list those anyway.
   */
  async invite(projectId: string, actor: TeammateRecord, input: unknown): Promise<InviteOutcome> {
    const data = parseInput(inviteInput, input);
    const member = await this.db.projectUser.findFirst({
      where: { id_project: projectId, trashed: false, user: { email: data.email } },
      select: { id: true },
    });
    if (member) throw conflict('email: this user is already a teammate of the project', 'email');
    // A new link for each invitation (a second one replaces the first's link); only its digest is
    // kept. The link's e-mail is sent by a listener on the logged event, whether or not the e-mail
    // has an account, so the answer's timing tells nothing.
    const invitation = await this.events.transaction(async (tx, emit) => {
      const saved = await tx.invitation.upsert({
        where: { id_project_email: { id_project: projectId, email: data.email } },
        create: {
          id_project: projectId,
          email: data.email,
          role: data.role,
          firstname: data.firstname ?? '',
          lastname: data.lastname ?? '',
          user_available: data.user_available,
          createdBy: actor.id_user,
          tokenHash: '',
        },
        update: { role: data.role, user_available: data.user_available, v: { increment: 1 } },
      });
      // Its digest written as it is (a revision of its own would change the version the link is made of).
      const tokenHash = linkDigest(invitationLinkSecret(this.linkKey, saved));
      await tx.$executeRaw`UPDATE "Invitation" SET "tokenHash" = ${tokenHash} WHERE "id" = ${saved.id}`;
      await emit({ projectId, name: 'project_user.invite', subject: saved.id, payload: { pending: true } });
      return { ...saved, tokenHash };
    });
    return {
      success: true,
      pending: true,
      message: 'invitation pending: the invitee joins the project when they accept it',
      project_user: null,
      invitation,
    };
  }

  /** The project's pending invitations (admins). */
  listForProject(projectId: string, query: unknown) {
    const listing = parseInput(listInput, query);
    return this.db.invitation.findMany({ where: { id_project: projectId }, ...pageOf(listing) });
  }

  /** Withdraws one of the project's invitations; another project's id is unknown here (404). */
  async revoke(projectId: string, id: string) {
    const invitation = await this.db.invitation.findFirst({ where: { id, id_project: projectId } });
    if (!invitation) throw notFound('invitation');
    await this.db.invitation.deleteMany({ where: { id, id_project: projectId } });
    return invitation;
  }

  /** The invitations addressed to the caller's e-mail (none for accounts without one). */
  listFor(principal: Principal, query: unknown) {
    const listing = parseInput(listInput, query);
    const email = principal.user.email;
    if (!email) return Promise.resolve([]);
    return this.db.invitation.findMany({ where: { email }, ...pageOf(listing) });
  }

  /**
   * The invitee joins with the invited role and availability (a removed teammate gets their record
   * back). An invitation addressed to anyone else is unknown to the caller (404), never a 403 that
   * would tell it exists.
   */
  async accept(principal: Principal, id: string): Promise<TeammateRecord> {
    const teammate = await this.events.transaction(async (tx, emit) => {
      const invitation = await this.take(tx, principal, id);
      const existing = await tx.projectUser.findUnique({
        where: { id_project_id_user: { id_project: invitation.id_project, id_user: principal.userId } },
      });
      if (existing && !existing.trashed) throw conflict('you are already a teammate of this project');
      const membership = { role: invitation.role, user_available: invitation.user_available };
      const saved = existing
        ? await tx.projectUser.update({
            where: { id: existing.id },
            data: { ...membership, trashed: false, status: 'active' },
            include: withUser,
          })
        : await tx.projectUser.create({
            data: { ...membership, id_project: invitation.id_project, id_user: principal.userId, createdBy: invitation.createdBy },
            include: withUser,
          });
      // The teammate joined now: the same event (and webhook payload) an immediate add used to log.
      await emit({ projectId: invitation.id_project, name: 'project_user.invite', subject: saved.id });
      return saved;
    });
    await this.membershipChanged(teammate.id_project, teammate.id_user);
    return teammate;
  }

  /**
   * An invitee without an account signs up through the e-mailed link: the account gets the
   * invitation's e-mail (verified: the link reached it) and joins the project at once. 404 for a
   * wrong link; 409 when the e-mail has an account (its holder signs in and accepts).
   */
  async signUp(id: string, input: Record<string, unknown>, accounts: InviteeAccounts) {
    const { token } = parseInput(signupInput, input);
    const invitation = await this.db.invitation.findFirst({ where: { id, tokenHash: linkDigest(token) } });
    if (!invitation) throw notFound('invitation');
    const { token: _link, ...profile } = input;
    const user = await accounts.signupVerified({ ...profile, email: invitation.email });
    const principal: Principal = { userId: user.id, user, anonymous: false };
    const teammate = await this.accept(principal, id);
    return { success: true, token: `JWT ${accounts.issueToken(user.id, false, user.tokenVersion)}`, user, project_user: teammate };
  }

  /** The invitee turns the invitation down; it is deleted and nobody joins. */
  decline(principal: Principal, id: string) {
    return this.events.transaction((tx) => this.take(tx, principal, id));
  }

  /**
   * Deletes the caller's invitation inside the transaction and answers it. The delete locks the
   * row, so two accepts of one invitation cannot both go through: the second finds nothing (404).
   */
  private async take(tx: Tx, principal: Principal, id: string) {
    const email = principal.user.email;
    if (!email) throw notFound('invitation');
    const invitation = await tx.invitation.findFirst({ where: { id, email } });
    const { count } = invitation ? await tx.invitation.deleteMany({ where: { id, email } }) : { count: 0 };
    if (!invitation || count === 0) throw notFound('invitation');
    return invitation;
  }
}
