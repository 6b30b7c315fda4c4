import { Prisma, type User } from '../../generated/prisma/client.js';
import { allDates, fromJsonRow, prepared, queryRows, type Db } from '../../infra/database.js';

// What authenticating a token reads when it is not cached: the account, and whether the token was
// revoked (signed out). One prepared statement for both, answering the row as JSON text: past
// Prisma's query engine, on the path every uncached call takes.

export const userDates = allDates<User>()(['deletedAt', 'createdAt', 'updatedAt']);

export async function readAccount(db: Db, userId: string, tokenId = ''): Promise<{ user: User | null; revoked: boolean }> {
  const [row] = await queryRows<{ user: string | null; revoked: boolean }>(
    db,
    Prisma.sql`${Prisma.raw(prepared)} SELECT (SELECT row_to_json(u)::text FROM "User" u WHERE u."id" = ${userId}) AS "user",
      EXISTS (SELECT 1 FROM "RevokedToken" t WHERE t."id" = ${tokenId}) AS "revoked"`,
  );
  return { user: row.user === null ? null : fromJsonRow<User>(row.user, userDates), revoked: row.revoked };
}
