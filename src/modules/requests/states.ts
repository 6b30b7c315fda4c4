import { conflict } from '../../errors.js';

// Request and message states (numeric values are part of the /v3 contract).

export const RequestStatus = {
  TEMPORARY: 50,
  UNSERVED: 100,
  ABANDONED: 150,
  SERVED: 200,
  CLOSED: 1000,
} as const;
export type RequestStatusValue = (typeof RequestStatus)[keyof typeof RequestStatus];

export const MessageStatus = {
  FAILED: -100,
  SENDING: 0,
  SENT: 100,
  DELIVERED: 150,
  RECEIVED: 200,
  RETURN_RECEIPT: 250,
  SEEN: 300,
} as const;

/** Receipts a participant may record on a message it received. */
export const receiptStatuses = [MessageStatus.DELIVERED, MessageStatus.RETURN_RECEIPT, MessageStatus.SEEN] as const;

const name = Object.fromEntries(Object.entries(RequestStatus).map(([k, v]) => [v, k])) as Record<number, string>;

/**
 * Every legal move. Routing, taking, participants, close and reopen are the triggers; a status
 * update (PATCH) may only ask for the moves marked `byUpdate`. Anything else answers 409.
 */
const moves: Record<number, Partial<Record<number, { byUpdate: boolean }>>> = {
  [RequestStatus.TEMPORARY]: {
    [RequestStatus.UNSERVED]: { byUpdate: false },
    [RequestStatus.SERVED]: { byUpdate: false },
    [RequestStatus.CLOSED]: { byUpdate: true },
  },
  [RequestStatus.UNSERVED]: {
    [RequestStatus.SERVED]: { byUpdate: false },
    [RequestStatus.ABANDONED]: { byUpdate: true },
    [RequestStatus.CLOSED]: { byUpdate: true },
  },
  [RequestStatus.ABANDONED]: {
    [RequestStatus.UNSERVED]: { byUpdate: true },
    [RequestStatus.SERVED]: { byUpdate: false },
    [RequestStatus.CLOSED]: { byUpdate: true },
  },
  [RequestStatus.SERVED]: {
    [RequestStatus.UNSERVED]: { byUpdate: false },
    [RequestStatus.CLOSED]: { byUpdate: true },
  },
  [RequestStatus.CLOSED]: {
    [RequestStatus.UNSERVED]: { byUpdate: false },
    [RequestStatus.SERVED]: { byUpdate: false },
  },
};

export const isOpen = (status: number) => status !== RequestStatus.CLOSED;

export function canMove(from: number, to: number, viaUpdate = false): boolean {
  if (from === to) return true;
  const move = moves[from]?.[to];
  return !!move && (!viaUpdate || move.byUpdate);
}

/** Throws 409 naming both states when `from → to` is not a legal move. */
export function assertMove(from: number, to: number, viaUpdate = false) {
  if (canMove(from, to, viaUpdate)) return;
  const how = viaUpdate && moves[from]?.[to] ? ' by a status update' : '';
  throw conflict(
    `status: a request cannot go from ${name[from] ?? from} (${from}) to ${name[to] ?? to} (${to})${how}`,
    'status',
  );
}
