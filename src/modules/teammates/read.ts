import { Prisma, type Project, type ProjectUser, type User } from '../../generated/prisma/client.js';
import { projectFromJson } from '../projects/read.js';
import { allDates, fromJsonRow, prepared, queryRows, type Db } from '../../infra/database.js';
import { userDates } from '../auth/account-read.js';
import type { TeammateRecord } from './record.js';

// A caller's membership of a project with its account, and the project itself (which the role
// check reads next: whether it is open): read on every call whose role is not cached. One
// prepared statement, the rows as JSON text, past Prisma's query engine.

export const teammateDates = allDates<ProjectUser>()(['createdAt', 'updatedAt']);

export async function readMembership(db: Db, projectId: string, userId: string): Promise<{ teammate: TeammateRecord | null; project: Project | null }> {
  const [row] = await queryRows<{ project: string | null; teammate: string | null; user: string | null }>(
    db,
    Prisma.sql`${Prisma.raw(prepared)} SELECT (SELECT row_to_json(p)::text FROM "Project" p WHERE p."id" = ${projectId}) AS "project",
        row_to_json(pu)::text AS "teammate", row_to_json(u)::text AS "user"
      FROM (SELECT 1) AS one
        LEFT JOIN "ProjectUser" pu ON pu."id_project" = ${projectId} AND pu."id_user" = ${userId}
        LEFT JOIN "User" u ON u."id" = pu."id_user"`,
  );
  const teammate = row.teammate && row.user ? { ...fromJsonRow<ProjectUser>(row.teammate, teammateDates), user: fromJsonRow<User>(row.user, userDates) } : null;
  return { teammate, project: row.project === null ? null : projectFromJson(row.project) };
}
