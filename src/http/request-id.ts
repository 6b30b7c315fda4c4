import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

// Every answer carries `x-request-id`: the caller's own, when it is a plausible id (a proxy's or a
// client's, so their logs and ours meet), else one made here. Anything else a caller sends (long,
// or with characters a log or header could be confused by) is replaced, not echoed.

export const requestIdHeader = 'x-request-id';

const wellFormed = /^[A-Za-z0-9._:@+=/-]{1,128}$/;

export function requestIdOf(req: IncomingMessage): string {
  const given = req.headers[requestIdHeader];
  return typeof given === 'string' && wellFormed.test(given) ? given : randomUUID();
}
