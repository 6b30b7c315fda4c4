import { Prisma, type StoredFile } from '../../generated/prisma/client.js';
import type { Db } from '../../infra/database.js';
import { scopeCondition, scopeFor } from '../requests/access.js';
import { viewerOf } from '../requests/request-rows.js';
import type { TeammateRecord } from '../teammates/service.js';
import { teamRoles } from '../teammates/roles.js';
import { botSenderSql } from '../auth/bot-identity.js';

// Which project files a visitor (role user or guest) may read besides their own uploads: those
// attached to a conversation they can see. A file is attached when a message visible to them
// names it in `metadata.src` (a download URL with `?path=`, or a URL whose path ends with the
// storage path). Only a message written by someone who may already read the file counts (its
// uploader, a teammate at agent level or above, a bot of the project): a visitor who learned a
// path cannot grant it to themselves by quoting it in their own request. A teammate who has
// since left still counts: what they sent stays part of the conversation.


/** Whether `src` names a stored file: as the `path` of a download URL, or as the tail of a URL path. */
export function namesFile(src: string, storagePath: string, canonical: (raw: string) => string | null): boolean {
  let url: URL;
  try {
    url = new URL(src, 'http://src.invalid');
  } catch {
    return false;
  }
  const query = url.searchParams.get('path');
  if (query !== null && canonical(query) === storagePath) return true;
  try {
    return decodeURIComponent(url.pathname).endsWith(`/${storagePath}`);
  } catch {
    return false;
  }
}

/** The segment unique to one upload (`projects/<id>/files/<uuid>/<name>`): what a naming src must contain. */
const uploadKey = (storagePath: string) => storagePath.split('/')[3] || storagePath;

export async function isAttachedFor(
  db: Db,
  member: TeammateRecord,
  file: StoredFile,
  canonical: (raw: string) => string | null,
): Promise<boolean> {
  if (!file.id_project) return false;
  // A thumbnail is attached with its image.
  const image = await db.storedFile.findFirst({ where: { thumbnail: file.path }, select: { path: true } });
  const names = [file.path, ...(image ? [image.path] : [])];
  const scope = await scopeFor(db, file.id_project, viewerOf(member));
  const rows = await db.$queryRaw<Array<{ src: string }>>`
    SELECT m."metadata"->>'src' AS src
    FROM "Message" m
    JOIN "Request" r ON r."id_project" = m."id_project" AND r."request_id" = m."request_id"
    WHERE m."id_project" = ${file.id_project}
      AND m."hidden" = false
      AND ${scopeCondition(scope)}
      AND strpos(m."metadata"->>'src', ${uploadKey(file.path)}) > 0
      AND (m."createdBy" = ${file.createdBy}
        OR EXISTS (SELECT 1 FROM "ProjectUser" pu
          WHERE pu."id_project" = m."id_project" AND pu."id_user" = m."createdBy"
            AND pu."role" IN (${Prisma.join(teamRoles)}))
        OR EXISTS (SELECT 1 FROM "Bot" b WHERE b."id_project" = m."id_project" AND ${botSenderSql(Prisma.sql`b."id"`)} = m."createdBy"))
    LIMIT 20`;
  return rows.some(({ src }) => names.some((name) => namesFile(src, name, canonical)));
}
