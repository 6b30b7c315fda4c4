import { STATUS_CODES, type IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { WebSocket } from 'ws';
import { toErrorBody, type AppError } from '../errors.js';
import { requestIdHeader, requestIdOf } from '../http/request-id.js';

// Websockets are counted per account, not per client address: the 300 visitors of an office behind
// one NAT are 300 accounts, each under its own cap, and their widgets take none of the address's
// HTTP places (src/http/connection-cap.ts). What is still counted per address is what has no
// account yet: sockets awaiting their connection_init (graphql-ws closes one that sends none within
// 3 s), and sockets that sign in with no token at all (public fields only).

export interface SocketLimits {
  /** Websockets one account holds open at once on this node. */
  perAccount: number;
  /** Websockets one address holds awaiting their connection_init (0: no cap). */
  awaitingInitPerAddress: number;
}

interface SocketState {
  address: string;
  awaitingInit: boolean;
  account?: string;
}

export class SocketCaps {
  private awaitingInit = new Map<string, number>();
  private perAccount = new Map<string, number>();
  private state = new WeakMap<WebSocket, SocketState>();

  constructor(private limits: SocketLimits) {}

  /** At the upgrade: why `address` may not open one more socket now, or null. */
  upgradeRefusal(address: string): string | null {
    const cap = this.limits.awaitingInitPerAddress;
    if (cap > 0 && (this.awaitingInit.get(address) ?? 0) >= cap) {
      return `this client address has ${cap} websockets awaiting their connection_init; retry in a moment`;
    }
    return null;
  }

  /** A socket upgraded: it awaits its connection_init. */
  opened(socket: WebSocket, address: string) {
    this.state.set(socket, { address, awaitingInit: true });
    increment(this.awaitingInit, address);
    socket.once('close', () => this.closed(socket));
  }

  /**
   * Its connection_init, as `account` (`address:<ip>` for a socket without a token): null, or why
   * it must close (the account holds its limit of sockets on this node already).
   */
  initialised(socket: WebSocket, account: string): string | null {
    const state = this.state.get(socket);
    if (!state || state.account !== undefined) return null;
    this.leaveInit(state);
    if ((this.perAccount.get(account) ?? 0) >= this.limits.perAccount) {
      return `at most ${this.limits.perAccount} websockets may be open at once for one account; close one first`;
    }
    state.account = account;
    increment(this.perAccount, account);
    return null;
  }

  private leaveInit(state: SocketState) {
    if (!state.awaitingInit) return;
    state.awaitingInit = false;
    decrement(this.awaitingInit, state.address);
  }

  private closed(socket: WebSocket) {
    const state = this.state.get(socket);
    if (!state) return;
    this.state.delete(socket);
    this.leaveInit(state);
    if (state.account !== undefined) decrement(this.perAccount, state.account);
  }
}

/** Answers an upgrade the node will not take with its status and a JSON error body, then closes the socket. */
export function refuseUpgrade(req: IncomingMessage, socket: Duplex, error: AppError) {
  const requestId = requestIdOf(req);
  const { status, body, headers } = toErrorBody(error);
  const payload = Buffer.from(JSON.stringify({ ...body, request_id: requestId }));
  const lines = [
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}`,
    'Connection: close',
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${payload.length}`,
    `${requestIdHeader}: ${requestId}`,
    ...Object.entries(headers ?? {}).map(([name, value]) => `${name}: ${value}`),
  ];
  socket.on('error', () => socket.destroy());
  socket.once('finish', () => socket.destroy());
  socket.end(Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`), payload]));
}

function increment(counts: Map<string, number>, key: string) {
  counts.set(key, (counts.get(key) ?? 0) + 1);
}

function decrement(counts: Map<string, number>, key: string) {
  const left = (counts.get(key) ?? 1) - 1;
  if (left > 0) counts.set(key, left);
  else counts.delete(key);
}
