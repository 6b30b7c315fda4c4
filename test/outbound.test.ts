import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

describe('safeFetch refuses non-public targets without sending a packet', () => {
  it.each([
    ['loopback', () => `http://127.0.0.1:${port}/`],
    ['a decimal IPv4 literal', () => `http://2130706433:${port}/`],
    ['an octal IPv4 literal', () => `http://017700000001:${port}/`],
    ['a hex IPv4 literal', () => `http://0x7f.0.0.1:${port}/`],
    ['an IPv4-mapped IPv6 literal', () => `http://[::ffff:127.0.0.1]:${port}/`],
    ['IPv6 loopback', () => `http://[::1]:${port}/`],
    ['a name resolving to loopback', () => `http://localhost:${port}/`],
    ['the cloud metadata address', () => 'http://169.254.169.254/latest/meta-data/'],
    ['the IPv6 metadata address', () => 'http://[fd00:ec2::254]/'],
    ['a private address', () => 'http://10.1.2.3/'],
    ['the unspecified address', () => `http://0.0.0.0:${port}/`],
  ])('%s', async (_label, url) => {
    hits = [];
    await expect(safeFetch(url(), {}, strict)).rejects.toBeInstanceOf(OutboundRefusedError);
    expect(hits).toEqual([]);
  });

  it('refuses schemes other than http and https', async () => {
    await expect(safeFetch('file:///etc/passwd', {}, strict)).rejects.toBeInstanceOf(OutboundRefusedError);
    await expect(safeFetch('ftp://example.com/', {}, strict)).rejects.toBeInstanceOf(OutboundRefusedError);
  });

  it('lets a host listed in allowedHosts through', async () => {
    const res = await safeFetch(`http://localhost:${port}/`, {}, { allowPrivate: false, allowedHosts: ['localhost'] });
    expect(res.status).toBe(200);
  });
});

describe('isNonPublicAddress', () => {
  it.each(['127.0.0.1', '10.0.0.1', '172.16.5.4', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '224.0.0.1', '::1', '::', 'fe80::1', 'fc00::1', 'fd00:ec2::254', '::ffff:127.0.0.1', '::ffff:7f00:1', '64:ff9b::a00:1', 'ff02::1'])(
    '%s is not public',
    (address) => expect(isNonPublicAddress(address)).toBe(true),
  );
  it.each(['8.8.8.8', '1.1.1.1', '2606:4700:4700::1111', '::ffff:8.8.8.8'])('%s is public', (address) =>
    expect(isNonPublicAddress(address)).toBe(false),
  );
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
