import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { AppError } from '../errors.js';
import { answerRefusal, type RequestGate } from './rate-limit.js';

// At most `cap` HTTP connections open at once from one client address: against one client opening
// thousands of connections and trickling bytes down each (slowloris), whose every connection the
// headers and request timeouts end. Many people behind one address (an office's NAT) are not cut
// off by it:
// - websockets leave the count once upgraded: they are counted per account instead
//   (src/realtime/socket-caps.ts), so 300 visitors' widgets do not take the office's HTTP places;
// - at the cap, the address's oldest idle keep-alive connection (it was answered and waits for
//   nothing) is closed to make room, as a browser expects of any keep-alive connection;
// - when every connection of the address is busy, the new one is still read, and its request is
//   answered 503 SERVICE_UNAVAILABLE with Retry-After and a body, then closed: a client sees an
//   answer it can act on, never a reset. Past twice the cap (a flood) a connection is closed unread.

/** How long a connection over the cap is held for its request before it is closed unanswered. */
const refusalWindowMs = 2_000;

interface Tracked {
  /** Served at least one request and has none in flight: closing it loses nothing. */
  idle: boolean;
}

export class ConnectionCap {
  /** The counted connections of each address, oldest first. */
  private open = new Map<string, Map<Socket, Tracked>>();
  /** Connections over the cap, each held for one answer: per address, how many. */
  private refusing = new Map<string, number>();
  private over = new WeakSet<Socket>();

  constructor(readonly cap: number) {}

  get enabled() {
    return this.cap > 0;
  }

  attach(server: Server) {
    if (!this.enabled) return;
    server.on('connection', (socket: Socket) => this.admit(socket));
    server.on('request', (req: IncomingMessage, res: ServerResponse) => {
      const tracked = this.open.get(req.socket.remoteAddress ?? '')?.get(req.socket);
      if (!tracked) return;
      tracked.idle = false;
      res.once('close', () => (tracked.idle = true));
    });
    // A websocket's upgrade: from now on the websocket server counts it (per account).
    server.on('upgrade', (req) => this.release(req.socket));
  }

  /** True for a connection admitted over the cap: its request is answered 503. */
  isOver(socket: Socket) {
    return this.over.has(socket);
  }

  /** The answer of a request on a connection over the cap; then `next` (the rate limit) decides. */
  gate(next: RequestGate): RequestGate {
    if (!this.enabled) return next;
    return (req, res, answerHeaders) => {
      if (!this.over.has(req.socket)) return next(req, res, answerHeaders);
      answerRefusal(req, res, { ...answerHeaders, connection: 'close', 'retry-after': '1' }, this.refusal(), req.url?.startsWith('/graphql') ?? false);
      return false;
    };
  }

  refusal() {
    return new AppError(
      'SERVICE_UNAVAILABLE',
      `this client address holds at most ${this.cap} connections at once and all of them are busy; retry in a moment, or reuse a connection`,
      { headers: { 'Retry-After': '1' } },
    );
  }

  private admit(socket: Socket) {
    const address = socket.remoteAddress ?? '';
    let open = this.open.get(address);
    if (open && open.size >= this.cap && !this.closeOldestIdle(open)) return this.holdForRefusal(socket, address);
    if (!open) this.open.set(address, (open = new Map()));
    open.set(socket, { idle: false });
    socket.once('close', () => this.release(socket, address));
  }

  private closeOldestIdle(open: Map<Socket, Tracked>) {
    for (const [socket, tracked] of open) {
      if (!tracked.idle) continue;
      open.delete(socket);
      socket.end();
      return true;
    }
    return false;
  }

  private holdForRefusal(socket: Socket, address: string) {
    const refusing = this.refusing.get(address) ?? 0;
    if (refusing >= this.cap) {
      socket.destroy();
      return;
    }
    this.refusing.set(address, refusing + 1);
    this.over.add(socket);
    const timer = setTimeout(() => socket.destroy(), refusalWindowMs);
    timer.unref();
    socket.once('close', () => {
      clearTimeout(timer);
      const left = (this.refusing.get(address) ?? 1) - 1;
      if (left > 0) this.refusing.set(address, left);
      else this.refusing.delete(address);
    });
  }

  /** `address`: the socket's, which it no longer tells once closed. */
  private release(socket: Socket, address = socket.remoteAddress ?? '') {
    const open = this.open.get(address);
    if (!open?.delete(socket)) return;
    if (open.size === 0) this.open.delete(address);
  }
}
