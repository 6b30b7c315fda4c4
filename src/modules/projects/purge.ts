import type { Db } from '../../infra/database.js';
import type { EventConsumer } from '../../infra/event-consumers.js';
import type { LoggedEvent } from '../../infra/event-log.js';
import type { FileStore } from '../../infra/file-store.js';
import type { Logger } from '../../infra/logger.js';

// The removal of a deleted project's data, a listener on the event log: the deletion itself
// answers at once (the project answers 404 from then on), while this, woken by its committed
// `project.delete`, walks every table and the file store. The consumer's cursor moves past the
// event only once the purge is done, so a process dying between the commit and the purge, or in
// the middle of it, leaves the event to read again (by the next process, or the sweep) and the
// purge happens anyway. Every table with an `id_project` column is emptied of the project's rows,
// found from the database's own catalogue, so a table added later is not forgotten; the accounts
// that existed only for the project (its visitors and its site's users) go too. Run again, it
// finds less to do.

/**
 * Emptied last, with the project row, in one transaction: until then the project's events and
 * cursors are there, so a purge cut short has its event read again and runs again.
 */
const emptiedLast = ['DomainEvent', 'EventCursor'];

export class ProjectPurge implements EventConsumer {
  readonly name = 'project-purge';

  constructor(
    private db: Db,
    private files: FileStore,
    private logger: Logger,
  ) {}

  wants(event: LoggedEvent) {
    return event.name === 'project.delete';
  }

  async handle(projectId: string) {
    // The cursor waits for it outside the dispatcher's slot; a failure reads the event again.
    return { settled: this.run(projectId) };
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
    // The name comes from the catalogue, quoted as an identifier; the value is a parameter.
    const empty = (db: Pick<Db, '$executeRawUnsafe'>, table: string) =>
      db.$executeRawUnsafe(`DELETE FROM "${table.replace(/"/g, '""')}" WHERE "id_project" = $1`, projectId);
    let removed = 0;
    for (const { table } of tables.filter((t) => !emptiedLast.includes(t.table))) removed += await empty(this.db, table);
    if (ownAccounts.length) await this.db.user.deleteMany({ where: { id: { in: ownAccounts.map((u) => u.id) } } });
    await this.db.$transaction(async (tx) => {
      for (const { table } of tables.filter((t) => emptiedLast.includes(t.table))) removed += await empty(tx, table);
      await tx.project.deleteMany({ where: { id: projectId } });
    });
    this.logger.info({ project: projectId, rows: removed, files: files.length, accounts: ownAccounts.length }, 'deleted project purged');
  }
}
