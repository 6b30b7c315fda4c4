import type { TestApp } from './app.js';

/** Whether an event consumer ('webhooks', 'bots', 'email-notifications') has read every event of the project so far. */
export async function consumerCaughtUp(t: TestApp, consumer: string, projectId: string): Promise<boolean> {
  const [row] = await t.infra.database.prisma.$queryRaw<Array<{ behind: boolean }>>`
    SELECT p."eventSeq" > COALESCE(c."seq", 0) AS behind FROM "Project" p
    LEFT JOIN "EventCursor" c ON c."consumer" = ${consumer} AND c."id_project" = p."id" WHERE p."id" = ${projectId}`;
  return !row.behind;
}
