import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import ipaddr from 'ipaddr.js';
import type { Plugin } from 'graphql-yoga';
import type { TrustProxy } from '../config.js';

// The address a client is counted by (credential throttle, rate limits): an IPv4 address as is,
// also when it arrives mapped into IPv6; an IPv6 address by its /64, the network one subscriber
// gets, any of whose addresses a host may take at will.
//
// Who the client is: the socket's peer, unless the app trusts proxies (TRUST_PROXY, noted on each
// request as it arrives by `trustProxies`): then the address X-Forwarded-For names, read as
// Express's `trust proxy` does: from the right (the peer, then each hop it added) past every
// trusted hop.

const bySocket = new WeakMap<Socket, string>();
const policies = new WeakMap<IncomingMessage, TrustProxy>();
const byRequest = new WeakMap<IncomingMessage, string>();

/** Marks a request as arriving at an app with this proxy policy (before anything reads its address). */
export function trustProxies(req: IncomingMessage, policy: TrustProxy) {
  if (policy.kind !== 'none') policies.set(req, policy);
}

/** An address without IPv4-mapped IPv6 dress and zone, or null when it is not one. */
function parsed(raw: string | undefined): ipaddr.IPv4 | ipaddr.IPv6 | null {
  if (!raw) return null;
  try {
    const address = ipaddr.process(raw.trim().replace(/^\[(.*)\]$/, '$1').replace(/%.*$/, ''));
    return address;
  } catch {
    return null;
  }
}

function inRanges(address: ipaddr.IPv4 | ipaddr.IPv6, ranges: string[]) {
  return ranges.some((range) => {
    const [network, bits] = ipaddr.parseCIDR(range);
    return network.kind() === address.kind() && address.match([network, bits] as never);
  });
}

/** The client's own address (not its /64): the peer's, or the one a trusted proxy forwarded. */
export function clientIp(req: IncomingMessage): string | null {
  const peer = req.socket?.remoteAddress;
  const policy = policies.get(req);
  if (!policy) return parsed(peer)?.toString() ?? null;
  const header = req.headers['x-forwarded-for'];
  const forwarded = (Array.isArray(header) ? header.join(',') : (header ?? '')).split(',').map((a) => a.trim()).filter(Boolean);
  // Nearest first: the peer, then the hops from right to left.
  const chain = [peer ?? '', ...forwarded.reverse()];
  let index: number;
  if (policy.kind === 'all') index = chain.length - 1;
  else if (policy.kind === 'hops') index = Math.min(policy.hops, chain.length - 1);
  else {
    index = 0;
    const ranges = policy.kind === 'ranges' ? policy.ranges : [];
    while (index < chain.length - 1) {
      const hop = parsed(chain[index]);
      if (!hop || !inRanges(hop, ranges)) break;
      index++;
    }
  }
  // A forwarded value that is no address (a proxy's "unknown") counts as the nearest address that is.
  for (let i = index; i >= 0; i--) {
    const address = parsed(chain[i]);
    if (address) return address.toString();
  }
  return null;
}

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

/**
 * The client address of a request as it is counted, worked out once per connection (per request
 * behind trusted proxies: one connection of a proxy carries many clients).
 */
export function clientAddress(req: IncomingMessage): string {
  const socket = req.socket;
  if (!socket) return 'unknown';
  if (policies.has(req)) {
    let address = byRequest.get(req);
    if (address === undefined) byRequest.set(req, (address = normalizeAddress(clientIp(req) ?? undefined)));
    return address;
  }
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

/** The client's own address in yoga's server context (see `clientIp`), or null. */
export function contextIp(serverContext: AddressCarrier): string | null {
  const req = serverContext.req ?? serverContext.extra?.request;
  return req ? clientIp(req) : null;
}

// The Fetch requests yoga's plugins see carry no socket: the address is noted as each arrives.
// A string value holds nothing of its key, so the entry goes with the request.
const byFetchRequest = new WeakMap<object, string>();

/** Notes each request's client address for `addressOf`; register it before plugins that read it. */
export function useClientAddress(): Plugin {
  return {
    onRequest({ request, serverContext }) {
      byFetchRequest.set(request, contextAddress((serverContext ?? {}) as AddressCarrier));
    },
  };
}

/** The client address of a request yoga's plugins received. */
export function addressOf(request: object): string {
  return byFetchRequest.get(request) ?? 'unknown';
}
