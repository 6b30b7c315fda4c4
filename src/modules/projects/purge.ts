import { z } from 'zod';
import type { Db } from '../../infra/database.js';
import type { FileStore } from '../../infra/file-store.js';
import { jobType, type JobDefinition } from '../../infra/job-queue.js';
import type { Logger } from '../../infra/logger.js';

// The removal of a deleted project's data, in a job: the deletion itself answers at once (the
// project answers 404 from then on), while this walks every table and the file store. Every table
// with an `id_project` column is emptied of the project's rows, found from the database's own
// catalogue, so a table added later is not forgotten; the accounts that existed only for the project
// (its visitors and its site's users) go too. Run again (a crash, a retry), it finds less to do.

export const purgeProjectJob = jobType('projects.purge', z.object({ projectId: z.string().min(1) }));

export class ProjectPurge {
  constructor(
    private db: Db,
    private files: FileStore,
    private logger: Logger,
  ) {}

  /** The queue's definition of the job; workers/jobs.ts registers it. */
  jobDefinition(): JobDefinition<typeof purgeProjectJob> {
    return {
      job: purgeProjectJob,
      attempts: 5,
      backoffMs: (attempt) => 1000 * 2 ** (attempt - 1),
      concurrency: 1,
      process: (data) => this.run(data.projectId),
    };
  }

  async run(projectId: string) {
    const project = await this.db.project.findUnique({ where: { id: projectId }, select: { deletedAt: true } });
    // Gone already (a second run), or never deleted: nothing to do.
    if (!project?.deletedAt) return;

    const files = await this.db.storedFile.findMany({ where: { id_project: projectId }, select: { path: true, thumbnail: true } });
    for (const file of files) {
      for (const path of [file.path, file.thumbnail]) {
        if (path) await this.files.remove(path).catch((error) => this.logger.warn({ err: (error as Error).message, path }, 'could not remove a file of a deleted project'));
      }
    }

    // Accounts that belong to this project alone: anonymous visitors with no other membership, and
    // the users its own site signed in (custom tokens are per project).
    const ownAccounts = await this.db.$queryRaw<Array<{ id: string }>>`
      SELECT u."id" FROM "User" u
      WHERE u."externalProject" = ${projectId}
         OR (u."anonymous" AND EXISTS (SELECT 1 FROM "ProjectUser" pu WHERE pu."id_user" = u."id" AND pu."id_project" = ${projectId})
             AND NOT EXISTS (SELECT 1 FROM "ProjectUser" pu WHERE pu."id_user" = u."id" AND pu."id_project" <> ${projectId}))`;

    const tables = await this.db.$queryRaw<Array<{ table: string }>>`
      SELECT c."table_name" AS "table" FROM information_schema.columns c
      JOIN information_schema.tables t ON t."table_name" = c."table_name" AND t."table_schema" = c."table_schema"
      WHERE c."column_name" = 'id_project' AND c."table_schema" = current_schema() AND t."table_type" = 'BASE TABLE'
      ORDER BY c."table_name"`;
    let removed = 0;
    for (const { table } of tables) {
      // The name comes from the catalogue, quoted as an identifier; the value is a parameter.
      removed += await this.db.$executeRawUnsafe(`DELETE FROM "${table.replace(/"/g, '""')}" WHERE "id_project" = $1`, projectId);
    }
    if (ownAccounts.length) await this.db.user.deleteMany({ where: { id: { in: ownAccounts.map((u) => u.id) } } });
    await this.db.project.deleteMany({ where: { id: projectId } });
    this.logger.info({ project: projectId, rows: removed, files: files.length, accounts: ownAccounts.length }, 'deleted project purged');
  }
}
