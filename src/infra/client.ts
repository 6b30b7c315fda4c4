import type { PrismaClient } from '../generated/prisma/client.js';

// The database client every service holds: Prisma's, with the revision counter every update
// raises. Its own module, so what wraps it (database.ts, request-transaction.ts) can name its type
// without importing each other.

// Models without a revision counter (append-only or derived rows).
const unrevisioned = new Set(['DomainEvent', 'KbChunk']);

export function withRevisions(client: PrismaClient) {
  return client.$extends({
    name: 'revision-counter',
    query: {
      $allModels: {
        async update({ model, args, query }) {
          if (!unrevisioned.has(model)) args.data = { ...args.data, v: { increment: 1 } } as typeof args.data;
          return query(args);
        },
        async updateMany({ model, args, query }) {
          if (!unrevisioned.has(model)) args.data = { ...args.data, v: { increment: 1 } } as typeof args.data;
          return query(args);
        },
        async upsert({ model, args, query }) {
          if (!unrevisioned.has(model)) args.update = { ...args.update, v: { increment: 1 } } as typeof args.update;
          return query(args);
        },
      },
    },
  });
}

export type Db = ReturnType<typeof withRevisions>;

/** A client usable inside an interactive transaction. */
export type Tx = Parameters<Parameters<Db['$transaction']>[0]>[0];
