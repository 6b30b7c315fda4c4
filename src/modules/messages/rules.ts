import { Prisma, type Message, type Request } from '../../generated/prisma/client.js';
import type { DomainEventInput } from '../../infra/event-log.js';
import { viewerKind, visibility, withoutDepartments } from '../requests/access.js';
import { all, column, equal, isNull, not, oneOf, param, value, type Condition } from '../requests/conditions.js';
import type { Actor } from '../requests/actor.js';
import { MessageStatus, RequestStatus } from '../requests/states.js';

// The rules of a message, once, for both ways a post is written: the general path
// (`MessageService.post`, `import`) and the batched statement (`PostBatcher`). The row a message
// is stored as, the `message.create` event it logs, and what it does to its request are defined
// here and nowhere else; the batched statement reads the same conditions as SQL.

/** What is stored for a message, whichever path writes it (`id` and `updatedAt` come from the writer). */
export interface MessageDraft {
  projectId: string;
  requestId: string;
  sender: string;
  senderFullname: string;
  createdBy: string;
  text: string;
  type: string;
  metadata?: Record<string, unknown>;
  attributes: Record<string, unknown>;
  hidden: boolean;
  createdAt?: Date;
}

/** The stored columns of a new message (the request_id is also its recipient; a new message is RECEIVED). */
export function messageRow(draft: MessageDraft) {
  return {
    id_project: draft.projectId,
    request_id: draft.requestId,
    recipient: draft.requestId,
    sender: draft.sender,
    senderFullname: draft.senderFullname,
    text: draft.text,
    type: draft.type,
    metadata: (draft.metadata ?? undefined) as Prisma.InputJsonValue | undefined,
    attributes: draft.attributes as Prisma.InputJsonValue,
    hidden: draft.hidden,
    status: MessageStatus.RECEIVED as number,
    createdBy: draft.createdBy,
    ...(draft.createdAt ? { createdAt: draft.createdAt } : {}),
  } satisfies Prisma.MessageUncheckedCreateInput;
}

/**
 * The SQL type of each column `messageRow` writes, for a statement that writes rows in bulk (the
 * batch in post-batches.ts): the compiler holds the two lists to the same columns. The others
 * (`receipts`, `v`) take the database's defaults, which Prisma's schema declares.
 */
export const messageRowColumns = {
  id_project: 'text',
  request_id: 'text',
  recipient: 'text',
  sender: 'text',
  senderFullname: 'text',
  text: 'text',
  type: 'text',
  metadata: 'jsonb',
  attributes: 'jsonb',
  hidden: 'boolean',
  status: 'int',
  createdBy: 'text',
  createdAt: 'timestamp(3)',
} as const satisfies Record<keyof ReturnType<typeof messageRow>, string>;

/** The `message.create` event of a stored message (subscribers filter on request_id and hidden). */
export function messageCreated(message: Pick<Message, 'id' | 'id_project' | 'request_id' | 'sender' | 'hidden'>): DomainEventInput {
  return {
    projectId: message.id_project,
    name: 'message.create',
    subject: message.id,
    payload: { request_id: message.request_id, sender: message.sender, hidden: message.hidden },
  };
}

// Who writes, as parameters of the conditions below: `kind` is a `ViewerKind`, or 'bot' for a bot
// (field auth has checked that it takes part); `teammateId` and `userId` are null for a bot.
export type AuthorKind = ReturnType<typeof viewerKind> | 'bot';

export function authorParams(actor: Actor) {
  const member = actor.member;
  return {
    kind: (member ? viewerKind(member.role) : 'bot') as AuthorKind,
    teammateId: member?.id ?? null,
    userId: member?.id_user ?? null,
  };
}

const byMember = not(equal(param('kind'), value('bot')));
const fromRequester = equal(column('requester_id'), param('teammateId'));

/** The requester's message to a preflight or abandoned request routes it (`MessageService.afterMessage`). */
export const routesRequest: Condition = all(
  byMember,
  fromRequester,
  oneOf(column('status'), [RequestStatus.TEMPORARY, RequestStatus.ABANDONED]),
);

/** A teammate's (agent or above, not the requester) first message sets first_response_at and waiting_time. */
export const isFirstResponse: Condition = all(
  byMember,
  not(equal(param('kind'), value('end-user'))),
  not(fromRequester),
  isNull(column('first_response_at')),
);

/** The request fields a first response sets (its `request.update` event names them). */
export const firstResponseFields = ['first_response_at', 'waiting_time'] as const;

/**
 * What a first response sets on its request: when it was given, and how long the requester had
 * waited since their first message (never negative; null when they wrote none). The requester, as
 * a user, is the requester teammate's user, else whoever opened the request.
 */
export function firstResponseData(answeredAt: Date, requesterFirstAt: Date | null) {
  return {
    first_response_at: answeredAt,
    waiting_time: requesterFirstAt ? Math.max(0, answeredAt.getTime() - requesterFirstAt.getTime()) : null,
  } satisfies Record<(typeof firstResponseFields)[number], unknown>;
}

/**
 * `firstResponseData` as SQL, for the batched statement: the same values from SQL times (both
 * `timestamp(3)`; the epoch of their difference is exact, in seconds).
 */
export function firstResponseSql(answeredAt: Prisma.Sql, requesterFirstAt: Prisma.Sql) {
  return {
    first_response_at: answeredAt,
    waiting_time: Prisma.sql`CASE WHEN ${requesterFirstAt} IS NULL THEN NULL
      ELSE GREATEST(0, EXTRACT(EPOCH FROM ${answeredAt} - ${requesterFirstAt}) * 1000)::float8 END`,
  } satisfies Record<keyof ReturnType<typeof firstResponseData>, Prisma.Sql>;
}

/** The requester as a user (see `firstResponseData`), in SQL on the Request row `r`. */
export const requesterUserSql = Prisma.sql`COALESCE((SELECT pu."id_user" FROM "ProjectUser" pu WHERE pu."id" = r."requester_id"), r."createdBy")`;

/**
 * The `request.update` event of a first response. The batched statement gives SQL expressions
 * (`V`) for the values the row has only in the database, and writes the payload out in SQL.
 */
export function firstResponded<V = never>(request: { id: string | NoInfer<V>; id_project: string | NoInfer<V>; request_id: string | NoInfer<V>; status: Request['status'] | NoInfer<V> }) {
  return {
    projectId: request.id_project,
    name: 'request.update' as const,
    subject: request.id,
    payload: { request_id: request.request_id, fields: [...firstResponseFields], status: request.status },
  };
}

/** A message to a closed request is refused (409). */
export const requestClosed: Condition = equal(column('status'), value(RequestStatus.CLOSED));

/**
 * Why the batched statement leaves a post to the general path, checked in this order; none holds
 * for a post it writes (a first response it writes too: `isFirstResponse` there sets the request's
 * fields and logs `firstResponded` in the same statement). Visibility is judged without the
 * author's departments: when it is not sure, the general path reads them and decides (and answers
 * 403 when the author may not write).
 */
export const batchFallbacks = [
  ['request_closed', requestClosed],
  ['visibility_unsure', all(byMember, not(visibility))],
  ['routes_request', routesRequest],
] as const satisfies ReadonlyArray<readonly [string, Condition]>;

/** Why a post took the general path instead of the batched statement. */
export type FallbackReason =
  | (typeof batchFallbacks)[number][0]
  /** The microlanguage made the post several messages (`microlanguage.ts`), written in one transaction. */
  | 'split_message'
  /** The message sends user details back (updateUserEmail/updateUserFullname): the lead changes too. */
  | 'updates_lead'
  /** No such request yet: the general path opens it. */
  | 'no_request'
  /** The statement wrote nothing (a deadlock, a serialisation failure, a value the database refused). */
  | 'statement_failed'
  /** The request was there and every rule passed, yet nothing was written (its project is gone). */
  | 'not_written';

/** The parameters the batched statement decides visibility with (no departments: see `batchFallbacks`). */
export const batchParams = withoutDepartments;
