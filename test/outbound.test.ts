import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { watchConnections } from './helpers/connections.js';
import { isNonPublicAddress, OutboundRefusedError, OutboundTimeoutError, safeFetch } from '../src/infra/outbound.js';

// safeFetch is the only way the server calls addresses customers choose (webhook targets, crawled pages).

let server: Server;
let port: number;
let hits: string[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    hits.push(req.url ?? '');
    if (req.url === '/redirect') {
      res.writeHead(302, { location: `http://127.0.0.1:${port}/elsewhere` });
      res.end();
    } else if (req.url === '/big') {
      res.end('x'.repeat(100_000));
    } else if (req.url === '/slow') {
      // Never answers.
    } else if (req.url === '/echo') {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => res.end(JSON.stringify({ method: req.method, host: req.headers.host, body: Buffer.concat(chunks).toString() })));
    } else {
      res.end('hello');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const strict = { allowPrivate: false };
const permissive = { allowPrivate: true };


describe('safeFetch refuses non-public targets before connecting', () => {
  let watch: ReturnType<typeof watchConnections>;
  beforeEach(() => {
    hits = [];
    watch = watchConnections();
  });
  afterEach(() => watch.stop());

  // Every notation a URL host can carry: WHATWG URL parsing turns the IPv4 forms into dotted decimal
  // and IPv6 into its compressed form; the address is classified after that, and after DNS.
  it.each([
    ['loopback', () => `http://127.0.0.1:${port}/`],
    ['loopback elsewhere in 127/8', () => `http://127.200.0.1:${port}/`],
    ['a decimal IPv4 literal', () => `http://2130706433:${port}/`],
    ['an octal IPv4 literal', () => `http://017700000001:${port}/`],
    ['octal dotted parts', () => `http://0177.0.0.01:${port}/`],
    ['a hex IPv4 literal', () => `http://0x7f000001:${port}/`],
    ['hex dotted parts', () => `http://0x7f.0.0.1:${port}/`],
    ['a shortened IPv4 literal (127.1)', () => `http://127.1:${port}/`],
    ['a trailing dot', () => `http://127.0.0.1.:${port}/`],
    ['a name resolving to loopback', () => `http://localhost:${port}/`],
    ['the unspecified address as 0', () => `http://0:${port}/`],
    ['the cloud metadata address', () => 'http://169.254.169.254/latest/meta-data/'],
    ['the metadata address in hex', () => 'http://0xa9fea9fe/'],
    ['a private address', () => 'http://10.1.2.3/'],
    ['a private address in octal', () => 'http://012.1.2.3/'],
    ['IPv6 loopback', () => `http://[::1]:${port}/`],
    ['the IPv6 unspecified address', () => `http://[::]:${port}/`],
    ['IPv6 loopback written out in full', () => `http://[0:0:0:0:0:0:0:1]:${port}/`],
    ['an IPv4-mapped loopback', () => `http://[::ffff:127.0.0.1]:${port}/`],
    ['an IPv4-mapped loopback in hex', () => `http://[::ffff:7f00:1]:${port}/`],
    ['an IPv4-translated loopback (::ffff:0:0:0/96)', () => `http://[::ffff:0:127.0.0.1]:${port}/`],
    ['an IPv4-compatible loopback (::127.0.0.1)', () => `http://[::127.0.0.1]:${port}/`],
    ['NAT64 of a private address (64:ff9b::/96)', () => 'http://[64:ff9b::10.0.0.1]/'],
    ['local-use NAT64 (64:ff9b:1::/48)', () => 'http://[64:ff9b:1::808:808]/'],
    ['6to4 of loopback', () => `http://[2002:7f00:1::1]:${port}/`],
    ['6to4 of the metadata address', () => 'http://[2002:a9fe:a9fe::1]/'],
    ['Teredo to a private client', () => 'http://[2001:0:808:808:0:0:f5ff:fffe]/'],
    ['the IPv6 metadata address', () => 'http://[fd00:ec2::254]/'],
    ['an IPv6 link-local address', () => 'http://[fe80::1]/'],
    ['an IPv6 multicast address', () => 'http://[ff02::1]/'],
    ['IPv6 documentation', () => 'http://[2001:db8::1]/'],
  ])('%s', async (_label, url) => {
    await expect(safeFetch(url(), {}, strict)).rejects.toBeInstanceOf(OutboundRefusedError);
    expect(watch.attempts).toEqual([]);
    expect(hits).toEqual([]);
  });

  it('says which range refused the address', async () => {
    await expect(safeFetch(`http://[2002:7f00:1::1]:${port}/`, {}, strict)).rejects.toThrow(/2002:7f00:1::1.*6to4.*127\.0\.0\.1.*loopback/);
    expect(watch.attempts).toEqual([]);
  });

  it('refuses schemes other than http and https', async () => {
    await expect(safeFetch('file:///etc/passwd', {}, strict)).rejects.toBeInstanceOf(OutboundRefusedError);
    await expect(safeFetch('ftp://example.com/', {}, strict)).rejects.toBeInstanceOf(OutboundRefusedError);
    expect(watch.attempts).toEqual([]);
  });

});

describe('safeFetch with allowedHosts', () => {
  it('lets a listed host through', async () => {
    const res = await safeFetch(`http://localhost:${port}/`, {}, { allowPrivate: false, allowedHosts: ['localhost'] });
    expect(res.status).toBe(200);
  });
});

// The IANA special-purpose registries (IPv4 and IPv6), first and last address of each block, and the
// IPv6 forms that carry an IPv4 address (checked as that IPv4 address).
const nonPublic: Array<[string, string[]]> = [
  ['0.0.0.0/8 this network', ['0.0.0.0', '0.255.255.255']],
  ['10.0.0.0/8 private', ['10.0.0.0', '10.255.255.255']],
  ['100.64.0.0/10 shared (CGNAT)', ['100.64.0.0', '100.127.255.255']],
  ['127.0.0.0/8 loopback', ['127.0.0.1', '127.255.255.255']],
  ['169.254.0.0/16 link-local', ['169.254.0.0', '169.254.169.254', '169.254.255.255']],
  ['172.16.0.0/12 private', ['172.16.0.0', '172.31.255.255']],
  ['192.0.0.0/24 IETF protocol assignments', ['192.0.0.0', '192.0.0.9', '192.0.0.170', '192.0.0.255']],
  ['192.0.2.0/24 documentation', ['192.0.2.0', '192.0.2.255']],
  ['192.31.196.0/24 AS112', ['192.31.196.1']],
  ['192.52.193.0/24 AMT', ['192.52.193.1']],
  ['192.88.99.0/24 6to4 relay anycast', ['192.88.99.1']],
  ['192.168.0.0/16 private', ['192.168.0.0', '192.168.255.255']],
  ['192.175.48.0/24 AS112', ['192.175.48.1']],
  ['198.18.0.0/15 benchmarking', ['198.18.0.0', '198.19.255.255']],
  ['198.51.100.0/24 documentation', ['198.51.100.1']],
  ['203.0.113.0/24 documentation', ['203.0.113.1']],
  ['224.0.0.0/4 multicast', ['224.0.0.1', '239.255.255.255']],
  ['240.0.0.0/4 reserved', ['240.0.0.0', '255.255.255.254']],
  ['255.255.255.255 broadcast', ['255.255.255.255']],
  ['::/128 unspecified', ['::']],
  ['::1/128 loopback', ['::1']],
  ['::ffff:0:0/96 IPv4-mapped, of a non-public IPv4', ['::ffff:127.0.0.1', '::ffff:7f00:1', '::ffff:10.0.0.1', '::ffff:169.254.169.254', '::ffff:0.0.0.0']],
  ['::ffff:0:0:0/96 IPv4-translated, of a non-public IPv4', ['::ffff:0:127.0.0.1', '::ffff:0:7f00:1', '::ffff:0:a00:1']],
  ['::/96 IPv4-compatible (deprecated)', ['::7f00:1', '::127.0.0.1', '::a00:1']],
  ['the rest of ::/8', ['::2', '::1:0:0:1', '0:ff::1']],
  ['64:ff9b::/96 NAT64, of a non-public IPv4', ['64:ff9b::127.0.0.1', '64:ff9b::a00:1', '64:ff9b::a9fe:a9fe']],
  ['64:ff9b:1::/48 local-use NAT64', ['64:ff9b:1::', '64:ff9b:1::808:808', '64:ff9b:1:ffff:ffff:ffff:ffff:ffff']],
  ['100::/64 discard', ['100::', '100::ffff:ffff:ffff:ffff']],
  ['2001::/23 IETF protocol assignments', ['2001:1::1', '2001:2::1', '2001:3::1', '2001:4:112::1', '2001:10::1', '2001:20::1', '2001:1ff:ffff::1']],
  ['2001::/32 Teredo, with a non-public server or client IPv4', ['2001:0:7f00:1::', '2001:0:a00:1:0:0:f7f7:f7f7', '2001:0:808:808:0:0:80ff:fffe', '2001:0:808:808:0:0:f5ff:fffe']],
  ['2001:db8::/32 documentation', ['2001:db8::', '2001:db8:ffff:ffff:ffff:ffff:ffff:ffff']],
  ['2002::/16 6to4, of a non-public IPv4', ['2002:7f00:1::1', '2002:a00:1::', '2002:a9fe:a9fe::1', '2002:c0a8:101::1', '2002::1']],
  ['2620:4f:8000::/48 AS112', ['2620:4f:8000::1']],
  ['3fff::/20 documentation', ['3fff::1', '3fff:fff:ffff::1']],
  ['5f00::/16 SRv6 SIDs', ['5f00::1']],
  ['fc00::/7 unique local', ['fc00::', 'fd00:ec2::254', 'fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff']],
  ['fe80::/10 link-local', ['fe80::1', 'febf:ffff:ffff:ffff:ffff:ffff:ffff:ffff']],
  ['fec0::/10 site-local (deprecated)', ['fec0::1']],
  ['ff00::/8 multicast', ['ff00::', 'ff02::1', 'ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff']],
  ['outside 2000::/3 global unicast', ['4000::1', 'e000::1', '1fff:ffff:ffff:ffff:ffff:ffff:ffff:ffff']],
  ['not an IP address', ['localhost', '', '127.0.0.1.nip.io', '0x7f000001']],
];

const publicAddresses: Array<[string, string[]]> = [
  ['public IPv4, next to the special blocks', ['8.8.8.8', '1.1.1.1', '9.255.255.255', '11.0.0.0', '100.63.255.255', '100.128.0.0', '172.15.255.255', '172.32.0.0', '192.167.255.255', '192.169.0.0', '223.255.255.255']],
  ['public IPv6 global unicast', ['2606:4700:4700::1111', '2a00:1450:4001:81b::200e', '2000::1', '2001:200::1', '2001:db9::1', '3ffe::1']],
  ['IPv4-mapped and IPv4-translated public IPv4', ['::ffff:8.8.8.8', '::ffff:0:8.8.8.8']],
  ['NAT64 of a public IPv4', ['64:ff9b::8.8.8.8']],
  ['6to4 of a public IPv4', ['2002:808:808::1']],
  ['Teredo between public IPv4 addresses', ['2001:0:808:808:0:0:f7f7:f7f7']],
];

describe('address classification', () => {
  describe.each(nonPublic)('%s is refused', (_range, addresses) => {
    it.each(addresses)('%s', (address) => expect(isNonPublicAddress(address)).toBe(true));
  });
  describe.each(publicAddresses)('%s passes', (_range, addresses) => {
    it.each(addresses)('%s', (address) => expect(isNonPublicAddress(address)).toBe(false));
  });
});

describe('safeFetch with private targets allowed', () => {
  it('sends the method, body and Host of the URL', async () => {
    const res = await safeFetch(`http://localhost:${port}/echo`, { method: 'POST', body: '{"a":1}' }, permissive);
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body.toString())).toEqual({ method: 'POST', host: `localhost:${port}`, body: '{"a":1}' });
  });

  it('returns a redirect as it is, without following it', async () => {
    hits = [];
    const res = await safeFetch(`http://127.0.0.1:${port}/redirect`, {}, permissive);
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toMatch(/\/elsewhere$/);
    expect(hits).toEqual(['/redirect']);
  });

  it('caps the response body and says so', async () => {
    const res = await safeFetch(`http://127.0.0.1:${port}/big`, { maxResponseBytes: 1024 }, permissive);
    expect(res.body.length).toBe(1024);
    expect(res.truncated).toBe(true);
  });

  it('gives up after the timeout', async () => {
    await expect(safeFetch(`http://127.0.0.1:${port}/slow`, { timeoutMs: 200 }, permissive)).rejects.toBeInstanceOf(
      OutboundTimeoutError,
    );
  });
});
