import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Config } from '../config.js';
import { AppError, toErrorBody } from '../errors.js';
import { BatchedLimit, type Allowance, type Limiters } from '../infra/rate-limit.js';
import { clientAddress } from './client-address.js';
import { writeReply } from './node-request.js';

// API-wide rate limits, applied where node hands over each request, ahead of every lane and of
// yoga, so no path escapes them (health checks excepted). A request is charged to its credential
// once that credential has verified on this node (then the per-token limit applies), and to its
// client address otherwise: calls without credentials, and a credential not yet seen valid, so a
// made-up token buys no budget of its own. Every answer carries RateLimit-Limit,
// RateLimit-Remaining and RateLimit-Reset (seconds); a refused request gets 429
// TOO_MANY_REQUESTS with Retry-After.

/** The rate-limit headers of an answer, lower-case, as a lane's reply carries them. */
export type RateLimitHeaders = Record<string, string>;

/**
 * What the listener does with a request: `false` when the gate answered it (429); otherwise the
 * headers its answer must carry (none for exempt paths). The headers are returned rather than set
 * on the response: a header set there sends every header of the lane's reply down node's slower
 * path.
 */
export type RequestGate = (req: IncomingMessage, res: ServerResponse, answerHeaders?: Record<string, string>) => RateLimitHeaders | undefined | false;

export interface RateLimitOptions {
  limits: Config['rateLimit'];
  limiters: Limiters;
  /** True for a credential (what follows the scheme) that verified on this node. */
  isVouched(credential: string): boolean;
  graphqlEndpoint: string;
}

const exempt = new Set(['/health', '/ready']);

export function rateLimitGate({ limits, limiters, isVouched, graphqlEndpoint }: RateLimitOptions): RequestGate {
  const shared = (name: string, points: number) =>
    limiters.shared ? limiters.counter({ name, points, durationSeconds: limits.windowSeconds }) : null;
  const tokens = new BatchedLimit(limits.requests, limits.windowSeconds, shared('api-token', limits.requests));
  const addresses = new BatchedLimit(limits.anonymousRequests, limits.windowSeconds, shared('api-address', limits.anonymousRequests));
  const tokenLimit = String(limits.requests);
  const addressLimit = String(limits.anonymousRequests);

  return (req, res, answerHeaders) => {
    const url = req.url ?? '/';
    const queryAt = url.indexOf('?');
    const pathname = queryAt < 0 ? url : url.slice(0, queryAt);
    if (exempt.has(pathname)) return undefined;
    const credential = credentialOf(req.headers.authorization);
    const byToken = credential !== null && isVouched(credential);
    const allowance: Allowance = byToken ? tokens.take(credential) : addresses.take(clientAddress(req));
    const headers: RateLimitHeaders = {
      'ratelimit-limit': byToken ? tokenLimit : addressLimit,
      'ratelimit-remaining': String(allowance.remaining),
      'ratelimit-reset': String(allowance.resetSeconds),
    };
    if (allowance.allowed) return headers;
    refuse(req, res, { ...answerHeaders, ...headers }, pathname === graphqlEndpoint);
    return false;
  };
}

/** What follows the scheme of an Authorization header (`JWT <token>`), as the auth service keys it. */
function credentialOf(header: string | undefined): string | null {
  if (!header) return null;
  const space = header.indexOf(' ');
  return space < 0 ? null : header.slice(space + 1);
}

function refuse(req: IncomingMessage, res: ServerResponse, headers: RateLimitHeaders, graphql: boolean) {
  // The body is not read: node discards it, keeping the connection.
  req.resume();
  const retryAfter = headers['ratelimit-reset'];
  const error = new AppError('TOO_MANY_REQUESTS', `rate limit exceeded; retry in ${retryAfter} s`);
  const { status, body } = toErrorBody(error);
  const payload = graphql ? { errors: [{ message: body.message, extensions: { code: body.code } }] } : body;
  writeReply(res, {
    status,
    headers: { ...headers, 'content-type': 'application/json; charset=utf-8', 'retry-after': retryAfter },
    body: JSON.stringify(payload),
  });
}
