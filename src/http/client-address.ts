import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import ipaddr from 'ipaddr.js';
import type { Plugin } from 'graphql-yoga';

// The address a client is counted by (credential throttle, rate limits): an IPv4 address as is,
// also when it arrives mapped into IPv6; an IPv6 address by its /64, the network one subscriber
// gets, any of whose addresses a host may take at will.

const bySocket = new WeakMap<Socket, string>();

export function normalizeAddress(raw: string | undefined): string {
  if (!raw) return 'unknown';
  try {
    const address = ipaddr.process(raw);
    if (address.kind() === 'ipv4') return address.toString();
    const parts = (address as ipaddr.IPv6).parts.slice(0, 4).map((p) => p.toString(16));
    return `${parts.join(':')}::/64`;
  } catch {
    return raw;
  }
}

/** The client address of a request, worked out once per connection. */
export function clientAddress(req: IncomingMessage): string {
  const socket = req.socket;
  if (!socket) return 'unknown';
  let address = bySocket.get(socket);
  if (address === undefined) {
    address = normalizeAddress(socket.remoteAddress);
    bySocket.set(socket, address);
  }
  return address;
}

/** Yoga's server context over HTTP (`req`), or graphql-ws's (`extra.request`). */
export interface AddressCarrier {
  req?: IncomingMessage;
  extra?: { request?: IncomingMessage };
}

export function contextAddress(serverContext: AddressCarrier): string {
  const req = serverContext.req ?? serverContext.extra?.request;
  return req ? clientAddress(req) : 'unknown';
}

// The Fetch requests yoga's plugins see carry no socket: the address is noted as each arrives.
// A string value holds nothing of its key, so the entry goes with the request.
const byRequest = new WeakMap<object, string>();

/** Notes each request's client address for `addressOf`; register it before plugins that read it. */
export function useClientAddress(): Plugin {
  return {
    onRequest({ request, serverContext }) {
      byRequest.set(request, contextAddress((serverContext ?? {}) as AddressCarrier));
    },
  };
}

/** The client address of a request yoga's plugins received. */
export function addressOf(request: object): string {
  return byRequest.get(request) ?? 'unknown';
}
