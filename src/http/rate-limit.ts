import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Config } from '../config.js';
import { AppError, toErrorBody } from '../errors.js';
import { BatchedLimit, type Allowance, type Limiters } from '../infra/rate-limit.js';
import { clientAddress } from './client-address.js';
import { writeReply } from './node-request.js';

// API-wide rate limits, applied where node hands over each request, ahead of every lane and of
// yoga, so no path escapes them (health checks excepted). A request is charged to the account of
// its credential once that credential has verified on this node (then the per-account limit
// applies: every token of an account, and its websocket connections, share one budget), and to
// its client address otherwise: calls without credentials, and a credential not yet seen valid,
// so a made-up token buys no budget of its own. Every answer carries RateLimit-Limit,
// RateLimit-Remaining and RateLimit-Reset (seconds); a refused request gets 429
// TOO_MANY_REQUESTS with Retry-After. Websocket operations are charged to the same budget
// (src/realtime/websocket.ts): a refused one gets an `error` for that operation, with the same code.

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
  /** The account of a credential (what follows the scheme) that verified on this node; null for any other. */
  accountOf(credential: string): string | null;
  graphqlEndpoint: string;
}

const exempt = new Set(['/health', '/ready']);

/** One caller's charge for a request or a websocket operation: its allowance and the limit it is under. */
export interface Charge extends Allowance {
  limit: number;
}

/**
 * The API's budget: per account of a verified credential, else per client address. One per
 * process, shared by every transport (HTTP REST, HTTP GraphQL, each websocket connection and
 * operation), so no transport is a way around it.
 */
export interface ApiBudget {
  /** Charges one request, connection or operation to `authorization`'s account (when vouched) or to `address`. */
  take(authorization: string | undefined, address: string): Charge;
}

export function apiBudget({ limits, limiters, accountOf }: Omit<RateLimitOptions, 'graphqlEndpoint'>): ApiBudget {
  const shared = (name: string, points: number) =>
    limiters.shared ? limiters.counter({ name, points, durationSeconds: limits.windowSeconds }) : null;
  const accounts = new BatchedLimit(limits.requests, limits.windowSeconds, shared('api-account', limits.requests));
  const addresses = new BatchedLimit(limits.anonymousRequests, limits.windowSeconds, shared('api-address', limits.anonymousRequests));
  return {
    take(authorization, address) {
      const credential = credentialOf(authorization);
      const account = credential === null ? null : accountOf(credential);
      if (account !== null) return { ...accounts.take(account), limit: limits.requests };
      return { ...addresses.take(address), limit: limits.anonymousRequests };
    },
  };
}

/** The error a refused request or operation gets: 429 TOO_MANY_REQUESTS, retry in the window's rest. */
export const rateLimited = (charge: Charge) => new AppError('TOO_MANY_REQUESTS', `rate limit exceeded; retry in ${charge.resetSeconds} s`);

export function rateLimitGate(budget: ApiBudget, graphqlEndpoint: string): RequestGate {
  return (req, res, answerHeaders) => {
    const url = req.url ?? '/';
    const queryAt = url.indexOf('?');
    const pathname = queryAt < 0 ? url : url.slice(0, queryAt);
    if (exempt.has(pathname)) return undefined;
    const charge = budget.take(req.headers.authorization, clientAddress(req));
    const headers: RateLimitHeaders = {
      'ratelimit-limit': String(charge.limit),
      'ratelimit-remaining': String(charge.remaining),
      'ratelimit-reset': String(charge.resetSeconds),
    };
    if (charge.allowed) return headers;
    answerRefusal(req, res, { ...answerHeaders, ...headers, 'retry-after': headers['ratelimit-reset'] }, rateLimited(charge), pathname === graphqlEndpoint);
    return false;
  };
}

/** What follows the scheme of an Authorization header (`JWT <token>`), as the auth service keys it. */
function credentialOf(header: string | undefined): string | null {
  if (!header) return null;
  const space = header.indexOf(' ');
  return space < 0 ? null : header.slice(space + 1);
}

/** Answers a request a gate refused (`headers` include its Retry-After), as REST or GraphQL over HTTP. */
export function answerRefusal(req: IncomingMessage, res: ServerResponse, headers: Record<string, string>, error: AppError, graphql: boolean) {
  // The body is not read: node discards it, keeping the connection (unless told to close it).
  req.resume();
  const { status, body } = toErrorBody(error);
  const payload = graphql ? { errors: [{ message: body.message, extensions: { code: body.code } }] } : body;
  writeReply(res, {
    status,
    headers: { ...headers, 'content-type': 'application/json; charset=utf-8' },
    body: JSON.stringify(payload),
  });
}
