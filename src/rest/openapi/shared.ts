import { errorStatus } from '../../errors.js';
import type { JsonSchema } from './json-schema.js';

// What every operation shares: the error body and its statuses, and the credentials
// src/modules/auth accepts in `Authorization` (Credentials.authenticate).

export const errorBodySchema: JsonSchema = {
  type: 'object',
  description: 'The one error body of the REST face (src/errors.ts).',
  properties: {
    success: { type: 'boolean', const: false },
    code: { type: 'string', enum: [...Object.keys(errorStatus), 'INTERNAL_SERVER_ERROR'], description: 'Stable; clients branch on it.' },
    message: { type: 'string', description: 'Names the field first when one is at fault (`email: is required`).' },
    field: { type: 'string', description: 'The input field at fault, when there is one.' },
    request_id: { type: 'string', description: 'The `x-request-id` of the call, to quote when reporting it (the server\'s log lines carry it too).' },
  },
  required: ['success', 'code', 'message', 'request_id'],
};

const errorWhen: Record<string, [name: string, when: string]> = {
  400: ['BadRequest', 'BAD_USER_INPUT: a field is missing or wrong (`field` names it).'],
  401: ['Unauthenticated', 'UNAUTHENTICATED: credentials are missing, invalid or expired.'],
  403: ['Forbidden', "FORBIDDEN: the caller's role in the project does not allow this."],
  404: ['NotFound', 'NOT_FOUND: no such record in this project (or no such route).'],
  409: ['Conflict', 'CONFLICT: the change conflicts with the current state (a duplicate, a stale `__v`).'],
  413: ['PayloadTooLarge', 'PAYLOAD_TOO_LARGE: the body is over the limit.'],
  422: ['Unprocessable', 'UNPROCESSABLE: the input is well-formed but cannot be used.'],
  429: ['TooManyRequests', 'TOO_MANY_REQUESTS: rate or credential limit reached; see `Retry-After`.'],
  500: ['InternalError', 'INTERNAL_SERVER_ERROR: an unexpected failure (logged; details are not shown).'],
  507: ['InsufficientStorage', 'INSUFFICIENT_STORAGE: the file store is full; nothing of the upload was kept; retry later.'],
  503: ['ServiceUnavailable', 'SERVICE_UNAVAILABLE: a dependency (Redis, the database) is unavailable; retry later.'],
};

export const errorResponses: Record<string, JsonSchema> = Object.fromEntries(
  Object.values(errorWhen).map(([name, when]) => [
    name,
    { description: when, content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } },
  ]),
);

/** Every status the error family answers, on every operation: any route can meet each of them. */
export const errorResponseRefs: Record<string, JsonSchema> = Object.fromEntries(
  Object.entries(errorWhen).map(([status, [name]]) => [status, { $ref: `#/components/responses/${name}` }]),
);

export const securitySchemes: Record<string, JsonSchema> = {
  jwt: {
    type: 'apiKey',
    in: 'header',
    name: 'Authorization',
    description: '`Authorization: JWT <token>`, the token from /auth/signin (or signinAnonymously, signinWithCustomToken).',
  },
  bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'The same token as `Authorization: Bearer <token>`.' },
  basic: { type: 'http', scheme: 'basic', description: "An account's e-mail and password (throttled like sign-in)." },
  botToken: {
    type: 'apiKey',
    in: 'header',
    name: 'Authorization',
    description: "`Authorization: JWT <token>` with a bot's token (GET /{project_id}/bots/{id}/jwt); acts as the bot.",
  },
};

/** Any one of the credentials above. */
export const anyCredential = Object.keys(securitySchemes).map((name) => ({ [name]: [] as string[] }));
