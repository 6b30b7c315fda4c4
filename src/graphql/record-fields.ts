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
