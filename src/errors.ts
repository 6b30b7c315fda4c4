import { GraphQLError } from 'graphql';
import { ZodError } from 'zod';
import { databaseRetryAfterSeconds, isDatabaseUnavailable } from './infra/database-unavailable.js';
import { currentRequestId } from './infra/request-scope.js';

// One error family for GraphQL and REST: a stable code, a message naming the field,
// and the HTTP status REST answers with.

export const errorStatus = {
  BAD_USER_INPUT: 400,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNPROCESSABLE: 422,
  TOO_MANY_REQUESTS: 429,
  SERVICE_UNAVAILABLE: 503,
  INSUFFICIENT_STORAGE: 507,
} as const;

export type ErrorCode = keyof typeof errorStatus;

export class AppError extends GraphQLError {
  readonly code: ErrorCode;
  readonly status: number;

  constructor(code: ErrorCode, message: string, options: { field?: string; headers?: Record<string, string> } = {}) {
    const status = errorStatus[code];
    super(message, {
      extensions: {
        code,
        ...(options.field ? { field: options.field } : {}),
        http: { status, ...(options.headers ? { headers: options.headers } : {}) },
      },
    });
    this.code = code;
    this.status = status;
  }
}

export const badInput = (field: string, message: string) => new AppError('BAD_USER_INPUT', message, { field });
export const notFound = (what: string) => new AppError('NOT_FOUND', `${what} not found`);
export const conflict = (message: string, field?: string) => new AppError('CONFLICT', message, { field });
export const forbidden = (message = 'your role in this project does not allow this operation') =>
  new AppError('FORBIDDEN', message);
/**
 * The database could not be reached, or dropped the connection a statement ran on (see
 * isDatabaseUnavailable): a moment's outage, answered 503 with Retry-After rather than 500.
 */
export const databaseUnavailable = () =>
  new AppError('SERVICE_UNAVAILABLE', 'the database is unavailable for a moment; retry this request (with the same Idempotency-Key, to be sure it runs once)', {
    headers: { 'Retry-After': String(databaseRetryAfterSeconds) },
  });

/** The error a client is shown for `error`: a database outage becomes `databaseUnavailable()`, anything else stays as it is. */
export const asClientError = (error: unknown) => (!(error instanceof AppError) && isDatabaseUnavailable(error) ? databaseUnavailable() : error);

export const unauthenticated = (message = 'authentication required') => new AppError('UNAUTHENTICATED', message);

/** Parses input with a zod schema; the first problem becomes a 400 naming its field. */
export function parseInput<T>(schema: { parse(input: unknown): T }, input: unknown): T {
  try {
    return schema.parse(input);
  } catch (error) {
    if (error instanceof ZodError) {
      const issue = error.issues[0];
      const field = issue.path.map(String).join('.') || 'body';
      // Zod 4 issues do not carry the input: look the value up to tell "missing" from "wrong type".
      const value = issue.path.reduce<unknown>((at, key) => (at as Record<PropertyKey, unknown> | undefined)?.[key], input);
      const message = issue.code === 'invalid_type' && value === undefined ? 'is required' : issue.message;
      throw badInput(field, `${field}: ${message}`);
    }
    throw error;
  }
}

export interface ErrorBody {
  success: false;
  code: ErrorCode | 'INTERNAL_SERVER_ERROR';
  message: string;
  field?: string;
  /** The `x-request-id` of the request that failed, to quote when reporting it (the log lines carry it too). */
  request_id?: string;
}

/** Maps any GraphQL error to the REST body and status (GraphQL input errors become 400). */
export function toErrorBody(error: unknown): { status: number; body: ErrorBody; headers?: Record<string, string> } {
  const answer = errorBodyOf(asClientError(error));
  const requestId = currentRequestId();
  if (requestId !== undefined) answer.body.request_id = requestId;
  return answer;
}

function errorBodyOf(error: unknown): { status: number; body: ErrorBody; headers?: Record<string, string> } {
  const ext = (error as GraphQLError)?.extensions as
    | { code?: string; field?: string; http?: { status?: number; headers?: Record<string, string> } }
    | undefined;
  const code = ext?.code as ErrorCode | undefined;
  if (code && code in errorStatus) {
    return {
      status: errorStatus[code],
      body: { success: false, code, message: (error as Error).message, ...(ext?.field ? { field: ext.field } : {}) },
      headers: ext?.http?.headers,
    };
  }
  const httpStatus = ext?.http?.status;
  if (httpStatus && httpStatus >= 400 && httpStatus < 500) {
    const byStatus = (Object.keys(errorStatus) as ErrorCode[]).find((c) => errorStatus[c] === httpStatus);
    return {
      status: httpStatus,
      body: { success: false, code: byStatus ?? 'BAD_USER_INPUT', message: (error as Error).message },
      headers: ext?.http?.headers,
    };
  }
  // Duck-typed: GraphQL errors may come from another copy of graphql-js (ESM/CJS).
  const isGraphQLError = error instanceof GraphQLError || (error as Error)?.name === 'GraphQLError';
  if (isGraphQLError && !(error as GraphQLError).originalError && (error as Error).message !== 'Unexpected error.') {
    // Coercion of a path, query or body value failed before any resolver ran.
    const message = (error as Error).message;
    const field = /\$(\w+)/.exec(message)?.[1];
    return {
      status: 400,
      body: { success: false, code: 'BAD_USER_INPUT', message, ...(field ? { field } : {}) },
    };
  }
  return { status: 500, body: { success: false, code: 'INTERNAL_SERVER_ERROR', message: 'Unexpected error.' } };
}

/** A request body over the JSON body limit (BODY_LIMIT_BYTES). */
export const bodyTooLarge = (limit: number) => new AppError('PAYLOAD_TOO_LARGE', `body: larger than the ${limit}-byte limit`);

/** A known path asked with a method it does not answer; `allow` lists those it does. */
export const methodNotAllowed = (method: string, pathname: string, allow: string[]) =>
  new AppError('METHOD_NOT_ALLOWED', `method: ${method} is not allowed on ${pathname}; allowed: ${allow.join(', ')}`, {
    field: 'method',
    headers: { allow: allow.join(', ') },
  });
