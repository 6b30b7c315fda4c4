import { Prisma, type Message, type Request } from '../../generated/prisma/client.js';
import { allDates, queryRows, withJsonDates, type Db } from '../../infra/database.js';
import { knowRelations, relationObject, relationsFromRow, type RelationRow } from '../requests/relations.js';

// Messages read for an answer that shows each one's request (a search's message hits): the
// messages, their requests (each once) and what the requests point to, in one statement, so
// rendering them reads nothing more of these (before: the messages, then their requests, then the
// requests' relations, one after the other). The records are what Prisma answers for the same
// rows: every scalar column of the model (not the stored tsvector), timestamps as dates.

// Every timestamp of the two models (the compiler checks none is missing).
export const requestDates = allDates<Request>()(['assigned_at', 'first_response_at', 'closed_at', 'last_activity_at', 'waiting_since', 'createdAt', 'updatedAt']);
export const messageDates = allDates<Message>()(['createdAt', 'updatedAt']);

/**
 * A row's scalar columns as one JSON object (`alias` names the row): `row_to_json` of a subselect,
 * as `json_build_object` takes at most 100 arguments (a model of 40 columns already needs 80).
 */
const columnsJson = (alias: string, fields: Record<string, string>) =>
  Prisma.raw(`(SELECT row_to_json("c") FROM (SELECT ${Object.values(fields).map((field) => `${alias}."${field}"`).join(', ')}) AS "c")`);

interface Found {
  messages: Array<Record<string, unknown>> | null;
  requests: Array<{ request: Record<string, unknown>; relations: RelationRow }> | null;
}

/** The project's messages of `ids` (in no order), each with its request as `request` when it has one. */
export async function messagesWithRequests(db: Db, projectId: string, ids: string[]): Promise<Array<Message & { request?: Request }>> {
  if (!ids.length) return [];
  const [row] = await queryRows<{ found: string }>(
    db,
    Prisma.sql`
      WITH "hit" AS (SELECT * FROM "Message" WHERE "id_project" = ${projectId} AND "id" = ANY(${ids}::text[]))
      SELECT json_build_object(
        'messages', (SELECT json_agg(${columnsJson('m', Prisma.MessageScalarFieldEnum)}) FROM "hit" m),
        'requests', (SELECT json_agg(json_build_object('request', ${columnsJson('r', Prisma.RequestScalarFieldEnum)}, 'relations', ${relationObject}))
          FROM "Request" r WHERE r."id_project" = ${projectId} AND r."request_id" IN (SELECT "request_id" FROM "hit"))
      )::text AS "found"`,
  );
  const found = JSON.parse(row.found) as Found;
  const requests = new Map<string, Request>();
  for (const { request, relations } of found.requests ?? []) {
    const record = withJsonDates<Request>(request, requestDates);
    knowRelations(record, relationsFromRow(relations));
    requests.set(record.request_id, record);
  }
  return (found.messages ?? []).map((message) => {
    const record = withJsonDates<Message & { request?: Request }>(message, messageDates);
    const request = requests.get(record.request_id);
    if (request) record.request = request;
    return record;
  });
}
