import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';
import { clientAddress, clientIp, trustProxies } from '../../src/http/client-address.js';

// Who the client is behind proxies (TRUST_PROXY), as Express's `trust proxy` reads X-Forwarded-For:
// from the right, past every trusted hop.

const trustProxy = (value: string) => loadConfig({ TRUST_PROXY: value }).http.trustProxy;

function request(peer: string, forwardedFor?: string, policy?: string): IncomingMessage {
  const req = { socket: { remoteAddress: peer }, headers: forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor } } as unknown as IncomingMessage;
  if (policy !== undefined) trustProxies(req, trustProxy(policy));
  return req;
}

describe('the client address behind proxies', () => {
  it('is the socket peer by default, whatever X-Forwarded-For says', () => {
    expect(clientIp(request('10.0.0.2', '81.2.69.160'))).toBe('10.0.0.2');
    expect(clientIp(request('10.0.0.2', '81.2.69.160', 'false'))).toBe('10.0.0.2');
    expect(trustProxy('')).toEqual({ kind: 'none' });
  });

  it('with a number of hops, is the address that many hops from the server', () => {
    expect(clientIp(request('10.0.0.2', '203.0.113.9, 81.2.69.160', '1'))).toBe('81.2.69.160');
    expect(clientIp(request('10.0.0.2', '203.0.113.9, 81.2.69.160', '2'))).toBe('203.0.113.9');
    // More hops than the header has: the left-most address.
    expect(clientIp(request('10.0.0.2', '81.2.69.160', '5'))).toBe('81.2.69.160');
  });

  it('with true, is the left-most forwarded address', () => {
    expect(clientIp(request('10.0.0.2', '203.0.113.9, 198.51.100.4, 81.2.69.160', 'true'))).toBe('203.0.113.9');
  });

  it('with ranges, is the right-most address outside them (a client cannot pass itself off by prepending)', () => {
    const policy = 'loopback, 10.0.0.0/8';
    expect(clientIp(request('127.0.0.1', '203.0.113.9, 81.2.69.160, 10.1.2.3', policy))).toBe('81.2.69.160');
    // A peer that is not a trusted proxy is the client itself.
    expect(clientIp(request('198.51.100.4', '81.2.69.160', policy))).toBe('198.51.100.4');
  });

  it('skips a forwarded value that is no address, and reads IPv6 and IPv4-mapped forms', () => {
    expect(clientIp(request('10.0.0.2', 'unknown', '1'))).toBe('10.0.0.2');
    expect(clientIp(request('::ffff:10.0.0.2', '2001:db8::1', '1'))).toBe('2001:db8::1');
    expect(clientIp(request('::ffff:10.0.0.2'))).toBe('10.0.0.2');
  });

  it('counts the forwarded client for throttles and rate limits (an IPv6 client by its /64)', () => {
    expect(clientAddress(request('10.0.0.2', '81.2.69.160', '1'))).toBe('81.2.69.160');
    expect(clientAddress(request('10.0.0.2', '2001:db8:1:2:3::4', '1'))).toBe('2001:db8:1:2::/64');
  });

  it('refuses a TRUST_PROXY that is none of these, naming the variable', () => {
    expect(() => trustProxy('sometimes')).toThrow(ConfigError);
    expect(() => trustProxy('sometimes')).toThrow(/TRUST_PROXY/);
    expect(() => trustProxy('10.0.0.0/99')).toThrow(/TRUST_PROXY/);
  });
});
