import type { LookupAddress } from 'node:dns';
import { lookup as dnsLookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';

// Every request the server makes to an address a customer chose goes through here, so that a webhook
// target or a crawled page cannot make the server talk to itself, its private network or the cloud
// metadata service. The host is resolved once, every address is checked, and the socket is opened to
// the checked address (the hostname is kept for Host and SNI), so DNS rebinding cannot swap it.

/** The target was refused by policy; no packet was sent to it. */
export class OutboundRefusedError extends Error {
  override name = 'OutboundRefusedError';
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
}

export interface OutboundResponse {
  status: number;
  headers: Headers;
  body: Buffer;
  truncated: boolean;
  durationMs: number;
}

const DEFAULT_TIMEOUT_MS = 10_000;
const DEFAULT_MAX_RESPONSE_BYTES = 1024 * 1024;

const refused = new net.BlockList();
for (const [prefix, bits] of [
  ['0.0.0.0', 8], // "this network", unspecified
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, cloud metadata
  ['172.16.0.0', 12],
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.88.99.0', 24], // 6to4 relay anycast
  ['192.168.0.0', 16],
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const) {
  refused.addSubnet(prefix, bits, 'ipv4');
}
for (const [prefix, bits] of [
  ['::', 128], // unspecified
  ['::1', 128],
  ['100::', 64], // discard
  ['2001:db8::', 32], // documentation
  ['fc00::', 7], // unique local, includes fd00:ec2::254
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated)
  ['ff00::', 8], // multicast
] as const) {
  refused.addSubnet(prefix, bits, 'ipv6');
}

/** The 16 bytes of an IPv6 address, or undefined when it is not one. */
function ipv6Bytes(address: string): number[] | undefined {
  if (net.isIPv6(address) === false) return undefined;
  let text = address.toLowerCase();
  const tail: number[] = [];
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (v4) {
    const parts = v4[1].split('.').map(Number);
    tail.push((parts[0] << 8) | parts[1], (parts[2] << 8) | parts[3]);
    text = text.slice(0, -v4[1].length) + '0:0';
  }
  const [head, rest] = text.split('::');
  const left = head ? head.split(':') : [];
  const right = rest !== undefined && rest !== '' ? rest.split(':') : [];
  const fill = rest !== undefined ? 8 - left.length - right.length : 0;
  const groups = [...left, ...Array<string>(fill).fill('0'), ...right].map((g) => parseInt(g, 16));
  if (tail.length) groups.splice(6, 2, ...tail);
  return groups.flatMap((g) => [g >> 8, g & 0xff]);
}

/** The IPv4 address carried inside an IPv4-mapped, IPv4-compatible or NAT64 IPv6 address. */
function embeddedIpv4(address: string): string | undefined {
  const bytes = ipv6Bytes(address);
  if (!bytes) return undefined;
  const zeros = (from: number, to: number) => bytes.slice(from, to).every((b) => b === 0);
  const mapped = zeros(0, 10) && bytes[10] === 0xff && bytes[11] === 0xff;
  const compatible = zeros(0, 12) && !zeros(12, 16);
  const nat64 = bytes[0] === 0x00 && bytes[1] === 0x64 && bytes[2] === 0xff && bytes[3] === 0x9b && zeros(4, 12);
  return mapped || compatible || nat64 ? bytes.slice(12).join('.') : undefined;
}

/** Whether an address is not a public unicast address (loopback, private, link-local, metadata, ...). */
export function isNonPublicAddress(address: string): boolean {
  const family = net.isIP(address);
  if (family === 4) return refused.check(address, 'ipv4');
  if (family !== 6) return true;
  const inner = embeddedIpv4(address);
  if (inner) return refused.check(inner, 'ipv4');
  return refused.check(address, 'ipv6');
}

interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

function bareHost(hostname: string): string {
  return hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
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
      throw new OutboundRefusedError(`cannot resolve ${host}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
    }
  }
  if (addresses.length === 0) throw new OutboundRefusedError(`cannot resolve ${host}`);
  const exempt = policy.allowPrivate || (policy.allowedHosts ?? []).some((h) => bareHost(h).toLowerCase() === host);
  if (!exempt) {
    const bad = addresses.find((a) => isNonPublicAddress(a.address));
    if (bad) throw new OutboundRefusedError(`${host} resolves to a non-public address (${bad.address})`);
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
    const req = (isHttps ? https : http).request(options, (res) => {
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
      req.destroy(error);
    }, timeoutMs);
    req.on('error', reject);
    req.end(body);
  });
}
