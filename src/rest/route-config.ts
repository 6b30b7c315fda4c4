import type { HandRoute } from './hand-route.js';

/**
 * A /v3 route of a module. Most run a GraphQL field (`Query.field` or `Mutation.field` as key; SOFA
 * makes their handler); a few are written by hand (`Route.name` as key, a `handle` of their own:
 * uploads and downloads). Both kinds live in the module's `routes` map and in one route table
 * (src/rest/router.ts), which is the only way into /v3 and what the OpenAPI document is built from.
 */
export interface RouteConfig {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  description?: string;
  /** Body fields whose explicit null reaches the field as null (REST reads other nulls as "not given"). */
  keepsNull?: readonly string[];
  /** Arguments read from the JSON body only, refused in the query string (credentials). */
  bodyOnly?: readonly string[];
  /**
   * Arguments of a POST/PUT/PATCH route the spec sends in the query string: SOFA reads them there
   * as well as in the body, and the OpenAPI document declares both forms.
   */
  queryToo?: readonly string[];
  /** The argument a bare JSON array body stands for (the object form stays valid). */
  arrayBody?: string;
  /** Also takes multipart/form-data: these parts, read as text, are the arguments of the same names. */
  formParts?: readonly string[];
  /** Response headers taken from the answer: header name to the answer's field. */
  answerHeaders?: Readonly<Record<string, string>>;
}

export type RestRoutes = Record<string, RouteConfig | HandRoute>;
/** More routes for a field of RestRoutes (an older path, another method), served exactly as its route is. */
export type RestAliases = Record<string, readonly RouteConfig[]>;
