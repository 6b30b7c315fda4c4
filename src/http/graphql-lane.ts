import { getOperationAST, type DocumentNode, type ExecutionResult } from 'graphql';
import { processRegularResult } from 'graphql-yoga';
import type { IncomingMessage } from 'node:http';
import type { Yoga } from './yoga.js';
import { responseCookies } from './response-cookies.js';
import { tooLargeReply, yogaReply, type Lane } from './listener.js';
import { jsonContentType, NodeRequestView, readBody, requestUrl, type Reply } from './node-request.js';

// The GraphQL lane: the common case of GraphQL over HTTP (a POST of a JSON body with a valid query
// or mutation, answered as JSON) runs straight from node's request through yoga's own envelop
// (the same parse and validation caches, limits, context, error masking and result processing).
// Anything else (GET, other bodies, unknown parameters, documents that do not parse or validate,
// subscriptions, accept headers that need another answer) goes to yoga itself, so yoga alone
// decides every status and error of the protocol.


export interface GraphqlLaneOptions {
  yoga: Yoga;
  endpoint: string;
  bodyLimitBytes: number;
}

interface Params {
  query: string;
  variables?: Record<string, unknown> | null;
  operationName?: string | null;
}

const knownParams = new Set(['query', 'variables', 'operationName']);

function paramsOf(body: string): Params | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return null;
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return null;
  const params = parsed as Record<string, unknown>;
  if (Object.keys(params).some((k) => !knownParams.has(k))) return null;
  if (typeof params.query !== 'string') return null;
  const { variables, operationName } = params;
  if (variables != null && (typeof variables !== 'object' || Array.isArray(variables))) return null;
  if (operationName != null && typeof operationName !== 'string') return null;
  return params as unknown as Params;
}

const answerTypes = ['application/graphql-response+json', 'application/json'];

/**
 * The media type yoga answers a regular result with, by its rule: the first acceptable type the
 * client lists (utf-8 only); for a wildcard, application/json. Null when none fits.
 */
export function answerType(accept: string | undefined): string | null {
  const asked = (accept || '*/*')
    .replace(/\s/g, '')
    .toLowerCase()
    .split(',')
    .filter((entry) => {
      const charset = entry.split(';').slice(1).find((p) => p.includes('charset='));
      return !charset || charset === 'charset=utf-8';
    })
    .map((entry) => entry.split(';')[0])
    .reverse();
  let chosen: string | null = null;
  for (const type of asked) {
    const [askedPre, askedSuf] = type.split('/');
    for (const candidate of answerTypes) {
      const [pre, suf] = candidate.split('/');
      if ((askedPre === '*' || askedPre === pre) && (askedSuf === '*' || askedSuf === suf)) chosen = candidate;
    }
  }
  return chosen;
}

/** What processRegularResult builds its answer with: kept as a plain reply, no Fetch Response. */
class CapturedResponse {
  constructor(
    readonly body: string | null,
    readonly init: { status?: number; headers?: Record<string, string> },
  ) {}
}

export function graphqlLane({ yoga, endpoint, bodyLimitBytes }: GraphqlLaneOptions): Lane {
  const viaYoga = (view: NodeRequestView, req: IncomingMessage) => yogaReply(yoga, view, req);

  return (req) => {
    if (req.method !== 'POST' || req.url !== endpoint) return null;
    const contentType = req.headers['content-type'];
    if (!contentType || !jsonContentType.test(contentType)) return null;
    const mediaType = answerType(req.headers.accept);
    if (!mediaType) return null;
    return async (): Promise<Reply> => {
      const raw = await readBody(req, bodyLimitBytes);
      if (raw === null) {
        return tooLargeReply(bodyLimitBytes);
      }
      const view = new NodeRequestView('POST', requestUrl(req), req, raw);
      const params = paramsOf(raw);
      if (!params) return viaYoga(view, req);
      const context: Record<string, unknown> = { req, request: view, params };
      const enveloped = yoga.getEnveloped(context);
      // Parse and validation failures (the limits throw from validation) are yoga's to answer.
      let document: DocumentNode;
      try {
        document = enveloped.parse(params.query);
        if (enveloped.validate(enveloped.schema, document).length) return viaYoga(view, req);
      } catch {
        return viaYoga(view, req);
      }
      const operation = getOperationAST(document, params.operationName);
      if (!operation || operation.operation === 'subscription') return viaYoga(view, req);
      const contextValue = await enveloped.contextFactory();
      const result = (await enveloped.execute({
        schema: enveloped.schema,
        document,
        contextValue,
        variableValues: params.variables ?? undefined,
        operationName: params.operationName ?? undefined,
      })) as ExecutionResult;
      const answer = processRegularResult(result as never, { Response: CapturedResponse } as never, mediaType) as unknown as CapturedResponse;
      const headers: Record<string, string> = { ...answer.init.headers };
      // A resolver's cookie (the sign-in's device cookie): one per answer.
      const cookie = responseCookies(view).at(-1);
      if (cookie) headers['set-cookie'] = cookie;
      return { status: answer.init.status ?? 200, headers, body: answer.body ?? '' };
    };
  };
}
