import type { Readable } from 'node:stream';
import type { Context } from '../context.js';
import type { minRole } from '../graphql/scopes.js';
import type { JsonSchema } from './openapi/json-schema.js';

// A /v3 route written by hand, for what SOFA cannot generate: multipart uploads (read as a stream
// within the route's own limit) and binary downloads. It is declared in its module's `routes` map
// beside the generated ones, and served by the same route table and lane: the same credentials,
// the same role check (`auth` is the `minRole` the GraphQL fields use), error bodies, request log
// and rate limit. Its OpenAPI operation is declared with it.

export type RouteOperation = JsonSchema & { summary: string; tags: string[]; requestBody?: JsonSchema; parameters?: JsonSchema[] };

export interface RouteCall {
  /** The request's context, as a GraphQL field gets it (principal, services). */
  ctx: Context;
  /** Path parameters, decoded. */
  params: Record<string, string>;
  query: URLSearchParams;
  /** The request with its body still unread (streamed), for multipart routes. */
  request: Request;
}

export type RouteAnswer =
  /** A JSON answer (200), a record presented as REST shows records (rest/shape.ts `restRecord`). */
  | { json: unknown }
  /** Text made already (a page, a document), with its content type. */
  | { text: string; headers: Record<string, string> }
  /** Bytes (a file), with their own headers. */
  | { stream: Readable; headers: Record<string, string> };

export interface HandRoute {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  /**
   * Who may call it: anyone, any signed-in caller (files check their own owners), or at least a
   * role in the path's project (`minRole('admin')`, as on GraphQL fields).
   */
  auth: 'anyone' | 'signed-in' | ReturnType<typeof minRole>;
  /** `multipart`: the route takes multipart/form-data and reads it itself; a generated route of the same method and path takes the JSON. */
  body: 'none' | 'multipart';
  handle(call: RouteCall): Promise<RouteAnswer>;
  operation: RouteOperation;
}

/** True for a route written by hand (one with its own `handle`). */
export const isHandRoute = (route: object): route is HandRoute => typeof (route as HandRoute).handle === 'function';
