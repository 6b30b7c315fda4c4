import type { IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import { AppError, badInput, bodyTooLarge, methodNotAllowed, unauthenticated } from '../errors.js';
import type { Context } from '../context.js';
import { projectRole } from '../graphql/builder.js';
import type { Logger } from '../infra/logger.js';
import type { HandRoute, RouteAnswer } from '../rest/hand-route.js';
import { errorResponse, noRoute, restBasePath, type RestApi, type RestRequest, type RouteMatch } from '../rest/plugin.js';
import { isFormData } from './multipart-form.js';
import { restPathOf } from '../rest/base-path.js';
import { restRecord } from '../rest/shape.js';
import { readForm } from './multipart-form.js';
import { hasBody, NodeRequestView, readBody, replyOf, requestUrl, type Reply } from './node-request.js';
import { responseCookies } from './response-cookies.js';
import type { Lane } from './listener.js';

// The REST lane: the only way into /v3. Every request under /v3 is matched in the one route table
// (rest/plugin.ts) and answered here, straight from node's request: a generated route runs its
// GraphQL field through SOFA's handler and yoga's envelop (context, execution, error masking); a
// route written by hand (uploads, downloads) runs its own handler with the same context and role
// check. The body of a generated route is read here, within the one body limit; a multipart body
// is streamed to the route that takes it, within that route's own limit. A path no route has is a
// 404, a known path asked with another method a 405.

export interface RestLaneOptions {
  rest: RestApi;
  bodyLimitBytes: number;
  logger: Logger;
}

export function restLane({ rest, bodyLimitBytes, logger }: RestLaneOptions): Lane {
  return (req) => {
    const rawUrl = req.url ?? '/';
    const pathname = restPathOf(rawUrl);
    if (pathname === null) return null;
    const method = req.method ?? 'GET';
    const queryAt = rawUrl.indexOf('?');
    const url = requestUrl(req, queryAt < 0 ? pathname : pathname + rawUrl.slice(queryAt));
    return async () => {
      try {
        const found = rest.match(method, pathname);
        if (!found) return await unrouted(req, method, pathname, rest);
        // A NUL byte is in no id, and PostgreSQL refuses it in text: refused here, whatever the route reads next (a multipart body included).
        for (const [name, value] of Object.entries(found.params)) if (value.includes('\0')) throw badInput(name, `${name}: must not contain a NUL byte`);
        const { hand, generated } = found.route;
        const multipart = isFormData(req.headers['content-type']);
        if (hand && (hand.body !== 'multipart' || multipart || !generated)) return await runHand(hand, found, req, url, rest);
        return await runGenerated(found, req, url, multipart, { rest, bodyLimitBytes });
      } catch (error) {
        if (!(error instanceof AppError)) logger.error({ err: error, path: pathname }, 'REST route failed');
        return replyOf(errorResponse(error));
      } finally {
        discardUnread(req);
      }
    };
  };
}

/**
 * Whatever of the body a route left unread (a refused upload) is read and dropped, so the
 * connection can carry the next request; a stream reader that paused it is let go of first.
 */
function discardUnread(req: IncomingMessage) {
  if (req.complete) return;
  req.removeAllListeners('data');
  req.resume();
}

async function unrouted(req: IncomingMessage, method: string, pathname: string, rest: RestApi): Promise<Reply> {
  const allow = rest.allowedMethods(pathname);
  if (!allow) return replyOf(noRoute(method, pathname));
  if (method === 'OPTIONS') return { status: 204, headers: { allow: allow.join(', ') }, body: '' };
  return replyOf(errorResponse(methodNotAllowed(method, pathname, allow)));
}

async function runGenerated(
  found: RouteMatch,
  req: IncomingMessage,
  url: string,
  multipart: boolean,
  { rest, bodyLimitBytes }: Pick<RestLaneOptions, 'rest' | 'bodyLimitBytes'>,
): Promise<Reply> {
  const config = found.route.generated!.config;
  let raw: string | null = null;
  if (hasBody(req)) {
    if (multipart) {
      const parts = config?.formParts;
      if (!parts) throw badInput('body', 'body: send the arguments as a JSON object (application/json)');
      const form = await readForm(fetchRequestOf(req, url, true), bodyLimitBytes, parts[0]);
      const values = await Promise.all(parts.map(async (part) => [part, await textOf(form.get(part))] as const));
      raw = JSON.stringify(Object.fromEntries(values.filter(([, value]) => value !== undefined)));
    } else {
      raw = await readBody(req, bodyLimitBytes);
      if (raw === null) throw bodyTooLarge(bodyLimitBytes);
      if (config?.arrayBody) raw = asArgument(raw, config.arrayBody);
    }
  }
  const view = new NodeRequestView(req.method ?? 'GET', url, req, raw);
  const reply = await rest.respond(view as unknown as RestRequest, found, { req, request: view });
  return withCookies(reply, view);
}

/** A form part as text (a file's content), or undefined when absent. */
async function textOf(part: FormDataEntryValue | null): Promise<string | undefined> {
  if (part === null) return undefined;
  return typeof part === 'string' ? part : part.text();
}

/** A bare JSON array body as the object naming the argument it stands for; any other body as sent. */
function asArgument(raw: string, argument: string): string {
  if (!raw.trimStart().startsWith('[')) return raw;
  try {
    const parsed: unknown = JSON.parse(raw);
    return Array.isArray(parsed) ? JSON.stringify({ [argument]: parsed }) : raw;
  } catch {
    return raw; // Not JSON: the route answers it (400).
  }
}

async function runHand(hand: HandRoute, { params }: RouteMatch, req: IncomingMessage, url: string, rest: RestApi): Promise<Reply> {
  const request = fetchRequestOf(req, url, hand.body === 'multipart');
  const ctx = (await rest.context({ req, request })) as Context;
  if (hand.auth === 'signed-in') {
    if (!(await ctx.principal())) throw unauthenticated();
  } else if (hand.auth !== 'anyone') {
    await projectRole(ctx, hand.auth(null, params).projectRole);
  }
  const answer = await hand.handle({ ctx, params, query: new URL(url).searchParams, request });
  return withCookies(replyOfAnswer(answer), request);
}

function replyOfAnswer(answer: RouteAnswer): Reply {
  if ('json' in answer) return { status: 200, headers: { 'content-type': 'application/json; charset=utf-8' }, body: JSON.stringify(restRecord(answer.json)) };
  if ('text' in answer) return { status: 200, headers: answer.headers, body: answer.text };
  return { status: 200, headers: answer.headers, body: answer.stream };
}

/** The node request as a Fetch Request; with `streamed`, its body still to be read (a stream, not buffered). */
function fetchRequestOf(req: IncomingMessage, url: string, streamed: boolean): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || name === 'connection' || name === 'transfer-encoding' || name === 'keep-alive') continue;
    headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  const method = req.method ?? 'GET';
  if (!streamed || !hasBody(req)) return new Request(url, { method, headers });
  return new Request(url, { method, headers, body: Readable.toWeb(req) as ReadableStream, duplex: 'half' } as RequestInit);
}

function withCookies(reply: Reply, request: object): Reply {
  // A resolver's cookie (the sign-in's device cookie): one per answer.
  const cookie = responseCookies(request).at(-1);
  if (cookie) reply.headers['set-cookie'] = cookie;
  return reply;
}
