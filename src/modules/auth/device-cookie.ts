import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { setResponseCookie } from '../../http/response-cookies.js';

// The device cookie of OWASP's "Slow Down Online Guessing Attacks with Device Cookies": a browser
// that signed in to an account successfully gets a cookie naming that account and a random device
// id, signed with the server's secret. A sign-in presenting a valid one for the account it claims
// is throttled per device rather than per address: strangers failing from the same address (an
// office, a carrier's NAT) lock out neither it nor the account there, and its own failures lock
// only that device. Everyone else is throttled per address as before.

export const deviceCookieName = 'sp_device';
/** How long a browser stays trusted after its last successful sign-in. */
export const deviceCookieSeconds = 180 * 86_400;

const mac = (secret: string, account: string, device: string) =>
  createHmac('sha256', secret).update(`device\n${account.toLowerCase()}\n${device}`).digest('base64url');

/** A cookie value trusting `device` (a new one when none) for `account`. */
export function deviceCookie(secret: string, account: string, device = randomBytes(16).toString('base64url')) {
  return `${device}.${mac(secret, account, device)}`;
}

/** The device id of a valid device cookie for `account` in a Cookie header, or null. */
export function trustedDevice(secret: string, account: string, cookieHeader: string | null | undefined): string | null {
  if (!cookieHeader) return null;
  for (const part of cookieHeader.split(';')) {
    const [name, value] = part.trim().split('=', 2);
    if (name !== deviceCookieName || !value) continue;
    const [device, signature] = value.split('.', 2);
    if (!device || !signature || device.length > 64) continue;
    const expected = Buffer.from(mac(secret, account, device));
    const given = Buffer.from(signature);
    if (given.length === expected.length && timingSafeEqual(given, expected)) return device;
  }
  return null;
}

/** Sets the device cookie `value` on the answer to `request` (REST or GraphQL). */
export function setDeviceCookie(request: Request, value: string, secure: boolean) {
  setResponseCookie(request, `${deviceCookieName}=${value}; Path=/; Max-Age=${deviceCookieSeconds}; HttpOnly; SameSite=Strict${secure ? '; Secure' : ''}`);
}
