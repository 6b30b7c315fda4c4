import { Prisma, type ProjectUser, type User } from '../../generated/prisma/client.js';
import { allDates, fromJsonRow, prepared, queryRows, type Db } from '../../infra/database.js';
import { userDates } from '../auth/account-read.js';
import type { TeammateRecord } from './record.js';

// A caller's membership of a project with its account: read on every call whose role is not
// cached. One prepared statement, the rows as JSON text, past Prisma's query engine.

const teammateDates = allDates<ProjectUser>()(['createdAt', 'updatedAt']);

export async function readMembership(db: Db, projectId: string, userId: string): Promise<TeammateRecord | null> {
  const [row] = await queryRows<{ teammate: string; user: string }>(
    db,
    Prisma.sql`${Prisma.raw(prepared)} SELECT to_jsonb(pu)::text AS "teammate", to_jsonb(u)::text AS "user"
      FROM "ProjectUser" pu JOIN "User" u ON u."id" = pu."id_user"
      WHERE pu."id_project" = ${projectId} AND pu."id_user" = ${userId}`,
  );
  if (!row) return null;
  return { ...fromJsonRow<ProjectUser>(row.teammate, teammateDates), user: fromJsonRow<User>(row.user, userDates) };
}
