import { databaseRetryAfterSeconds } from '../infra/database-unavailable.js';
import { createHash } from 'node:crypto';
import { IncomingMessage, type ServerResponse } from 'node:http';
import type { Config } from '../config.js';
import { AppError, badInput, bodyTooLarge } from '../errors.js';
import type { IdempotencyKeys, KeyScope } from '../infra/idempotency.js';
import type { Logger } from '../infra/logger.js';
import { errorResponse, noRoute, restBasePath, type RestApi } from '../rest/plugin.js';
import type { Lane } from './listener.js';
import { readBodyBytes, replyOf, type Reply } from './node-request.js';
import { formEnvelopeBytes, isMultipart, multipartBoundary } from './multipart-form.js';
import { restPathOf } from '../rest/base-path.js';

// `Idempotency-Key` on REST POSTs, as Stripe has it: the first answer to a caller's key is kept
// for 24 hours and a retry with that key gets it again (same status and body, plus
// `Idempotent-Replayed: true`) without running the write again. The same key for another path or
// body answers 422; while the first request runs, 409. Only final answers are kept: 2xx and 4xx,
// but not 408, 425 or 429 (nor any 5xx), which a retry may get past.
//
// It is the first lane: it takes the keyed POSTs and runs them through the other lanes itself,
// with the body it read to fingerprint them. Requests without the header cost one header lookup.
// Calls without credentials (sign-up, sign-in: `/v3/auth/...`) have no caller to keep a key for and
// pass through as if unkeyed.
//
// Exactly once across crashes: the key's claim, the request's writes and its kept answer commit in
// one database transaction (IdempotencyKeys.once), so a process killed at any instant leaves either
// all of them (a retry gets the answer) or none (a retry runs the request, once). An answer not
// kept (a 5xx, 408, 425, 429) rolls back what the request wrote.

export const idempotencyHeader = 'idempotency-key';

export interface IdempotencyLaneOptions {
  /** The lanes after this one: where a keyed request runs. */
  lanes: Lane[];
  /** The generated routes: a path's `project_id` scopes its keys. */
  rest: RestApi;
  keys: IdempotencyKeys;
  /** The caller the request's credentials name (throws 401 for bad ones, as every route would). */
  identify(req: IncomingMessage): Promise<{ userId: string } | null>;
  config: Pick<Config, 'bodyLimitBytes' | 'files' | 'kb'>;
  logger: Logger;
}

const maxKeyLength = 255;
/** Answers a retry may get past: a keyed request that got one can run again. */
const notFinal = new Set([408, 425, 429]);
/** Headers of an answer that belong to that one response, not to the answer kept. */
const perResponse = new Set(['content-length', 'date', 'connection', 'keep-alive', 'transfer-encoding']);

export function idempotencyLane(options: IdempotencyLaneOptions): Lane {
  return (req, res) => {
    const header = req.headers[idempotencyHeader];
    if (header === undefined || req.method !== 'POST' || req.headers.authorization === undefined) return null;
    const path = restPathOf(req.url ?? '/');
    if (path === null || path.startsWith(`${restBasePath}/auth/`)) return null;
    return () => keyed(options, req, res, header);
  };
}

async function keyed(options: IdempotencyLaneOptions, req: IncomingMessage, res: ServerResponse, header: string | string[]): Promise<Reply> {
  const key = keyOf(header);
  if (typeof key !== 'string') return errorReply(key);
  let caller: { userId: string } | null;
  try {
    caller = await options.identify(req);
  } catch (error) {
    return errorReply(error);
  }
  const url = req.url ?? '/';
  const contentType = req.headers['content-type'] ?? '';
  const { config } = options;
  // Uploads are capped by their routes as they are read; a keyed one is read whole first (64 KB for the multipart envelope).
  const limit = isMultipart(contentType) ? Math.max(config.files.maxBytes, config.kb.fetchMaxBytes) + formEnvelopeBytes : config.bodyLimitBytes;
  const body = await readBodyBytes(req, limit);
  if (!body) return errorReply(bodyTooLarge(limit));
  if (!caller) return run(options, req, res, body);

  const pathname = url.split('?')[0].replace(/\/+$/, '');
  const scope: KeyScope = { caller: caller.userId, projectId: options.rest.match('POST', pathname)?.params.project_id ?? '', key };
  const fingerprint = { request: `POST ${url}`, bodyHash: bodyDigest(contentType, body) };
  // Only final answers are kept; the others roll back whatever the request wrote, and a retry runs it again.
  const keep = (reply: Reply) =>
    typeof reply.body === 'string' && reply.status < 500 && !notFinal.has(reply.status) ? { status: reply.status, headers: kept(reply.headers), body: reply.body } : null;
  const outcome = await options.keys.once(scope, fingerprint, () => run(options, req, res, body), keep);
  switch (outcome.kind) {
    case 'ran':
      return outcome.reply;
    case 'not-kept':
      return errorReply(new AppError('SERVICE_UNAVAILABLE', 'the request could not be completed and nothing of it was kept; retry it with the same Idempotency-Key', { headers: { 'Retry-After': String(databaseRetryAfterSeconds) } }));
    case 'replay':
      return { status: outcome.answer.status, headers: { ...outcome.answer.headers, 'idempotent-replayed': 'true' }, body: outcome.answer.body };
    case 'in-flight':
      return errorReply(new AppError('CONFLICT', 'Idempotency-Key: a request with this key is still in progress; retry once it has answered', { field: 'Idempotency-Key' }));
    case 'mismatch':
      return errorReply(
        new AppError('UNPROCESSABLE', `Idempotency-Key: this key was used for a request with another ${outcome.differs === 'body' ? 'body' : 'method or path'}; use a new key for a new request`, {
          field: 'Idempotency-Key',
        }),
      );
  }
}

/** The header's key: 1 to 255 visible ASCII characters, optionally quoted (as the IETF draft writes it). */
function keyOf(header: string | string[]): string | AppError {
  const raw = (Array.isArray(header) ? header.join(', ') : header).trim();
  const key = raw.length >= 2 && raw.startsWith('"') && raw.endsWith('"') ? raw.slice(1, -1) : raw;
  if (!key.length) return badInput('Idempotency-Key', 'Idempotency-Key: must not be empty');
  if (key.length > maxKeyLength) return badInput('Idempotency-Key', `Idempotency-Key: must be at most ${maxKeyLength} characters`);
  if (!/^[\x20-\x7e]+$/.test(key)) return badInput('Idempotency-Key', 'Idempotency-Key: must be visible ASCII characters');
  return key;
}

const errorReply = (error: unknown) => replyOf(errorResponse(error));

/** Runs a request whose body was read already, through the first lane that takes it (the REST lane takes every /v3 path). */
async function run(options: IdempotencyLaneOptions, req: IncomingMessage, res: ServerResponse, body: Buffer): Promise<Reply> {
  const copy = withBody(req, body);
  for (const lane of options.lanes) {
    const next = lane(copy, res);
    if (next) return next();
  }
  return replyOf(noRoute('POST', (req.url ?? '/').split('?')[0]));
}

/** The same request again, its body to be read from `body` (the original's was read already). */
function withBody(req: IncomingMessage, body: Buffer): IncomingMessage {
  const copy = new IncomingMessage(req.socket);
  copy.method = req.method;
  copy.url = req.url;
  copy.headers = req.headers;
  copy.rawHeaders = req.rawHeaders;
  copy.httpVersion = req.httpVersion;
  copy.httpVersionMajor = req.httpVersionMajor;
  copy.httpVersionMinor = req.httpVersionMinor;
  // Nothing more to read from the socket: the body is all here.
  copy._read = () => {};
  if (body.length) copy.push(body);
  copy.push(null);
  copy.complete = true;
  return copy;
}


/**
 * SHA-256 of a body. A multipart body is hashed without its boundary, which clients choose anew
 * for each request, retries included: the same parts make the same digest.
 */
export function bodyDigest(contentType: string, body: Buffer): string {
  const hash = createHash('sha256');
  const boundary = multipartBoundary(contentType);
  const delimiter = boundary ? Buffer.from(`--${boundary}`) : null;
  if (!delimiter) return hash.update(body).digest('base64url');
  let from = 0;
  for (let at = body.indexOf(delimiter); at >= 0; at = body.indexOf(delimiter, from)) {
    hash.update(body.subarray(from, at)).update('\0');
    from = at + delimiter.length;
  }
  return hash.update(body.subarray(from)).digest('base64url');
}

function kept(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !perResponse.has(name.toLowerCase())));
}
