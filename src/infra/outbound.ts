import type { LookupAddress } from 'node:dns';
import { lookup as dnsLookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import ipaddr from 'ipaddr.js';

// Every request the server makes to an address a customer chose goes through here, so that a webhook
// target or a crawled page cannot make the server talk to itself, its private network or the cloud
// metadata service. The host is resolved once, every address is checked, and the socket is opened to
// the checked address (the hostname is kept for Host and SNI), so DNS rebinding cannot swap it.

/** The target was refused by policy; no packet was sent to it. */
export class OutboundRefusedError extends Error {
  override name = 'OutboundRefusedError';
}

/** The target's name does not resolve (a refusal too: nothing is sent). */
export class UnresolvedHostError extends OutboundRefusedError {
  override name = 'UnresolvedHostError';
}

/** The target did not answer in time. */
export class OutboundTimeoutError extends Error {
  override name = 'OutboundTimeoutError';
}

export interface OutboundPolicy {
  /** Allow loopback, private, link-local and other non-public addresses (tests, on-premise setups). */
  allowPrivate: boolean;
  /** Hostnames (or IP literals) exempt from the address check, e.g. an internal service chosen by the operator. */
  allowedHosts?: string[];
}

export interface OutboundRequest {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array;
  /** Whole-exchange limit, connection included (default 10 s). */
  timeoutMs?: number;
  /** Bytes of the response body kept; the rest is not read (default 1 MiB). */
  maxResponseBytes?: number;
  /**
   * Answer as soon as the headers arrive, the body in `stream` as it comes (server-sent events of a
   * model). The timeout still bounds the whole exchange; a body past maxResponseBytes errors the stream.
   */
  stream?: boolean;
}

export interface OutboundResponse {
  status: number;
  headers: Headers;
  body: Buffer;
  truncated: boolean;
  durationMs: number;
  /** The body as it arrives (request.stream); `body` is then empty. */
  stream?: ReadableStream<Uint8Array>;
}

const DEFAULT_TIMEOUT_MS = 10_000;
const DEFAULT_MAX_RESPONSE_BYTES = 1024 * 1024;

// Addresses are classified by ipaddr.js against the IANA special-purpose registries. Only globally
// routable unicast passes: every special-purpose block is refused (even the few anycast services the
// registry calls reachable, where no receiver lives), and IPv6 outside 2000::/3 too. IPv6 forms that
// carry an IPv4 address (mapped, translated, NAT64, 6to4, Teredo) are judged by that IPv4 address.

const globalUnicast = ipaddr.IPv6.parseCIDR('2000::/3');
// The NAT64 well-known prefix; its local-use neighbour 64:ff9b:1::/48 is never global.
const nat64WellKnown = ipaddr.IPv6.parseCIDR('64:ff9b::/96');

function ipv4Of(high: number, low: number) {
  return new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
}

function ipv4Refusal(ip: ipaddr.IPv4): string | undefined {
  const range = ip.range();
  return range === 'unicast' ? undefined : `${ip.toString()} is ${range}`;
}

function ipv6Refusal(ip: ipaddr.IPv6): string | undefined {
  const range: string = ip.range();
  const [, p1, p2, p3, , , p6, p7] = ip.parts;
  const carried = (inner: ipaddr.IPv4) => {
    const refusal = ipv4Refusal(inner);
    return refusal && `${range} of ${refusal}`;
  };
  switch (range) {
    case 'ipv4Mapped':
    case 'rfc6145':
      return carried(ipv4Of(p6, p7));
    case 'rfc6052':
      return ip.match(nat64WellKnown) ? carried(ipv4Of(p6, p7)) : `${ip.toString()} is ${range} local-use`;
    case '6to4':
      return carried(ipv4Of(p1, p2));
    case 'teredo':
      // The server's address, then the client's (stored inverted).
      return carried(ipv4Of(p2, p3)) ?? carried(ipv4Of(~p6 & 0xffff, ~p7 & 0xffff));
    case 'unicast':
      return ip.match(globalUnicast) ? undefined : `${ip.toString()} is outside global unicast (2000::/3)`;
    default:
      return `${ip.toString()} is ${range}`;
  }
}

/** Why an address is not a globally routable unicast address, or undefined when it is one. */
export function addressRefusal(address: string): string | undefined {
  if (!net.isIP(address)) return 'not an IP address';
  let ip: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    ip = ipaddr.parse(address);
  } catch {
    return 'not an IP address';
  }
  return ip.kind() === 'ipv4' ? ipv4Refusal(ip as ipaddr.IPv4) : ipv6Refusal(ip as ipaddr.IPv6);
}

/** Whether an address is not a public unicast address (loopback, private, link-local, metadata, ...). */
export function isNonPublicAddress(address: string): boolean {
  return addressRefusal(address) !== undefined;
}

interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

function bareHost(hostname: string): string {
  return hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
}

function isExempt(host: string, policy: OutboundPolicy) {
  return policy.allowPrivate || (policy.allowedHosts ?? []).some((h) => bareHost(h).toLowerCase() === host);
}

/** The URL if its form may be sent to (http(s), no credentials); refused otherwise. */
function sendableUrl(url: string): URL {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    throw new OutboundRefusedError('not an absolute URL');
  }
  if (target.protocol !== 'http:' && target.protocol !== 'https:') {
    throw new OutboundRefusedError(`scheme ${target.protocol} is not allowed`);
  }
  if (target.username || target.password) throw new OutboundRefusedError('credentials in the URL are not allowed');
  return target;
}

/**
 * Why the policy would refuse to send to `url` (the reason safeFetch gives), or undefined: for
 * checking a target when it is saved. A name that does not resolve now is not refused here (it may
 * be set up later; each send checks again, so a name that later resolves to a private address is
 * still refused then), and an exempt host is not looked up at all.
 */
export async function targetRefusal(url: string, policy: OutboundPolicy): Promise<string | undefined> {
  try {
    const target = sendableUrl(url);
    if (isExempt(bareHost(target.hostname).toLowerCase(), policy)) return undefined;
    await resolveTarget(target, policy);
    return undefined;
  } catch (error) {
    if (error instanceof UnresolvedHostError) return undefined;
    if (error instanceof OutboundRefusedError) return error.message;
    throw error;
  }
}

async function resolveTarget(url: URL, policy: OutboundPolicy): Promise<ResolvedAddress[]> {
  // WHATWG URL parsing already normalised decimal, octal and hex IPv4 forms (http://2130706433/ → 127.0.0.1).
  const host = bareHost(url.hostname).toLowerCase();
  const literal = net.isIP(host);
  let addresses: ResolvedAddress[];
  if (literal) {
    addresses = [{ address: host, family: literal as 4 | 6 }];
  } else {
    try {
      const found = await dnsLookup(host, { all: true, verbatim: true });
      addresses = found.map((a) => ({ address: a.address, family: a.family as 4 | 6 }));
    } catch (error) {
      throw new UnresolvedHostError(`cannot resolve ${host}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
    }
  }
  if (addresses.length === 0) throw new UnresolvedHostError(`cannot resolve ${host}`);
  if (!isExempt(host, policy)) {
    for (const { address } of addresses) {
      const refusal = addressRefusal(address);
      if (refusal) throw new OutboundRefusedError(`${host} resolves to a non-public address (${address}: ${refusal})`);
    }
  }
  return addresses;
}

// Pools are split by policy so that a socket opened under a permissive policy is never reused by a strict one.
const agents = {
  strict: { http: new http.Agent({ keepAlive: true, maxSockets: 256 }), https: new https.Agent({ keepAlive: true, maxSockets: 256 }) },
  permissive: { http: new http.Agent({ keepAlive: true, maxSockets: 256 }), https: new https.Agent({ keepAlive: true, maxSockets: 256 }) },
};

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** Sends one HTTP request to a customer-chosen URL under the outbound policy. Redirects are returned, not followed. */
export async function safeFetch(url: string, request: OutboundRequest, policy: OutboundPolicy): Promise<OutboundResponse> {
  const target = sendableUrl(url);
  const started = performance.now();
  const timeoutMs = request.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxBytes = request.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  const addresses = await resolveTarget(target, policy);
  const chosen = addresses[0];
  const pinnedLookup = (_host: string, options: { all?: boolean }, callback: LookupCallback) => {
    if (options.all) callback(null, [{ address: chosen.address, family: chosen.family }]);
    else callback(null, chosen.address, chosen.family);
  };

  const isHttps = target.protocol === 'https:';
  const pool = policy.allowPrivate ? agents.permissive : agents.strict;
  const body = request.body === undefined ? undefined : typeof request.body === 'string' ? Buffer.from(request.body) : request.body;
  const headers: Record<string, string> = { ...request.headers };
  if (body && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-length')) {
    headers['content-length'] = String(body.byteLength);
  }

  return new Promise<OutboundResponse>((resolveOnce, rejectOnce) => {
    let settled = false;
    const resolve = (value: OutboundResponse) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolveOnce(value);
    };
    const reject = (error: unknown) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      rejectOnce(error);
    };
    const options: https.RequestOptions = {
      method: request.method ?? 'GET',
      protocol: target.protocol,
      hostname: bareHost(target.hostname),
      port: target.port || (isHttps ? 443 : 80),
      path: `${target.pathname}${target.search}`,
      headers,
      agent: isHttps ? pool.https : pool.http,
      lookup: pinnedLookup as unknown as net.LookupFunction,
    };
    if (isHttps && !net.isIP(bareHost(target.hostname))) options.servername = bareHost(target.hostname);
    let streamFailed: ((error: Error) => void) | undefined;
    const req = (isHttps ? https : http).request(options, (res) => {
      if (request.stream) {
        const responseHeaders = new Headers();
        for (const [name, value] of Object.entries(res.headers)) {
          if (value === undefined) continue;
          for (const v of Array.isArray(value) ? value : [value]) responseHeaders.append(name, v);
        }
        let size = 0;
        let open = true;
        const stream = new ReadableStream<Uint8Array>({
          start(controller) {
            const fail = (error: Error) => {
              if (!open) return;
              open = false;
              clearTimeout(timer);
              controller.error(error);
            };
            streamFailed = fail;
            res.on('data', (chunk: Buffer) => {
              if (!open) return;
              size += chunk.length;
              if (size > maxBytes) {
                res.destroy();
                fail(new Error(`the answer is larger than ${maxBytes} bytes`));
                return;
              }
              controller.enqueue(new Uint8Array(chunk));
            });
            res.on('end', () => {
              if (!open) return;
              open = false;
              clearTimeout(timer);
              controller.close();
            });
            res.on('error', fail);
            res.on('aborted', () => fail(new Error('the connection was closed before the answer ended')));
          },
          cancel() {
            open = false;
            clearTimeout(timer);
            res.destroy();
          },
        });
        settled = true;
        resolveOnce({ status: res.statusCode ?? 0, headers: responseHeaders, body: Buffer.alloc(0), truncated: false, durationMs: Math.round(performance.now() - started), stream });
        return;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      let truncated = false;
      const finish = () => {
        const responseHeaders = new Headers();
        for (const [name, value] of Object.entries(res.headers)) {
          if (value === undefined) continue;
          for (const v of Array.isArray(value) ? value : [value]) responseHeaders.append(name, v);
        }
        resolve({
          status: res.statusCode ?? 0,
          headers: responseHeaders,
          body: Buffer.concat(chunks),
          truncated,
          durationMs: Math.round(performance.now() - started),
        });
      };
      res.on('data', (chunk: Buffer) => {
        if (truncated) return;
        const room = maxBytes - size;
        if (chunk.length >= room) {
          if (room > 0) chunks.push(chunk.subarray(0, room));
          size = maxBytes;
          truncated = chunk.length > room;
          if (truncated) {
            // Stop reading; the socket is not reused.
            res.destroy();
            finish();
          }
          return;
        }
        chunks.push(chunk);
        size += chunk.length;
      });
      res.on('end', () => {
        if (!truncated) finish();
      });
      res.on('error', (error) => {
        if (!truncated) reject(error);
      });
    });
    const timer = setTimeout(() => {
      const error = new OutboundTimeoutError(`no complete answer within ${timeoutMs} ms`);
      reject(error);
      streamFailed?.(error);
      req.destroy(error);
    }, timeoutMs);
    req.on('error', reject);
    req.end(body);
  });
}
