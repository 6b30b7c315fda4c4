import { builder } from './builder.js';

// Fields every stored record shows. REST renames `revision` to `__v` (GraphQL cannot name it).

export interface StoredRecord {
  id: string;
  createdAt: Date;
  updatedAt: Date;
  v: number;
}

export type Types = typeof builder extends PothosSchemaTypes.SchemaBuilder<infer T> ? T : never;

export function recordFields<T extends StoredRecord>(t: PothosSchemaTypes.ObjectFieldBuilder<Types, T>) {
  const f = t as unknown as PothosSchemaTypes.ObjectFieldBuilder<Types, StoredRecord>;
  return {
    _id: f.string({ nullable: false, resolve: (r) => r.id }),
    id: f.string({ nullable: false, resolve: (r) => r.id }),
    createdAt: f.field({ type: 'DateTime', nullable: false, resolve: (r) => r.createdAt }),
    updatedAt: f.field({ type: 'DateTime', nullable: false, resolve: (r) => r.updatedAt }),
    revision: f.int({ nullable: false, description: 'Revision counter; `__v` in REST.', resolve: (r) => r.v }),
  };
}

/** REST routes of a module: `Query.field` or `Mutation.field` to method and /v3 path. */
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
}
export type RestRoutes = Record<string, RouteConfig>;
/** More routes for a field of RestRoutes (an older path, another method), served exactly as its route is. */
export type RestAliases = Record<string, readonly RouteConfig[]>;

export { builder };
