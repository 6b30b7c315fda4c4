-- A request's last activity and waiting start, kept on its row by triggers in the transaction of
-- the change itself, whoever writes "Message" (a post, the batched post, an import, a merge moving
-- messages, the seed), as Chatwoot keeps `last_activity_at` and `waiting_since` on its
-- conversations. The inbox sorts by them: computed from each open request's messages at read time,
-- they cost one or two index probes per open request (31,000 open at a year's size: 564 ms and
-- 2.1 s, issue 39), and an index over the open requests now reads a page of them in order.
--   last_activity_at: the newest message (null: none yet, the request's creation stands for it)
--   waiting_since:    the requester's oldest message nobody else has written after (null: the
--                     last word is not the requester's)
-- Insertions move them forward from the statement's own rows (new messages are the newest: one
-- older than the request's last activity has it computed again), and an update moving a message
-- (its request, sender or time) computes its requests' values again from their messages. Deletions
-- are not followed: messages are deleted only with their request (its deletion, retention, a
-- lead's erasure), so a recount there would write rows about to go.
--
-- NB: the PostgreSQL driver runs a migration as statements split at every semicolon, comments
-- and quotes included. Function bodies are therefore E'' strings whose semicolons are written
-- \073, and no comment here may hold one.

-- AlterTable
ALTER TABLE "Request" ADD COLUMN "last_activity_at" TIMESTAMP(3), ADD COLUMN "waiting_since" TIMESTAMP(3);

-- Both values of the requests named by the pairs (projects[i], requests[i]), from their messages.
CREATE FUNCTION "Request_activity_recount"(projects text[], requests text[]) RETURNS void LANGUAGE sql AS E'
  UPDATE "Request" r SET
    "last_activity_at" = (SELECT max(m."createdAt") FROM "Message" m WHERE m."id_project" = r."id_project" AND m."request_id" = r."request_id"),
    "waiting_since" = (SELECT min(m."createdAt") FROM "Message" m
      WHERE m."id_project" = r."id_project" AND m."request_id" = r."request_id" AND m."sender" = r."createdBy"
        AND m."createdAt" > COALESCE((SELECT max(a."createdAt") FROM "Message" a
          WHERE a."id_project" = r."id_project" AND a."request_id" = r."request_id" AND a."sender" <> r."createdBy"), ''-infinity''::timestamp))
  FROM unnest(projects, requests) AS c("id_project", "request_id")
  WHERE r."id_project" = c."id_project" AND r."request_id" = c."request_id"
';

-- Written messages move their requests' values forward: the newest message is the last activity,
-- an answer (a message from anyone but the requester) ends the wait, and the requester's first
-- message after the last answer (or the wait already running) starts it. A request given a message
-- older than its last activity (an import of earlier history) is computed again from its messages.
-- Requests locked in id order.
CREATE FUNCTION "Request_activity_written"() RETURNS trigger LANGUAGE plpgsql AS E'
DECLARE
  "late" text[]\073
BEGIN
  PERFORM 1 FROM "Request" r
    WHERE (r."id_project", r."request_id") IN (SELECT "id_project", "request_id" FROM "changed_new")
    ORDER BY r."id" FOR UPDATE\073
  SELECT array_agg(DISTINCT q."id") INTO "late"
    FROM "changed_new" c JOIN "Request" q ON q."id_project" = c."id_project" AND q."request_id" = c."request_id"
    WHERE c."createdAt" < q."last_activity_at"\073
  IF "late" IS NOT NULL THEN
    PERFORM "Request_activity_recount"(array_agg("id_project"), array_agg("request_id")) FROM "Request" WHERE "id" = ANY("late")\073
  END IF\073
  WITH "written" AS (
    SELECT q."id", c."createdAt", c."sender" = q."createdBy" AS "asks"
    FROM "changed_new" c JOIN "Request" q ON q."id_project" = c."id_project" AND q."request_id" = c."request_id"
    WHERE "late" IS NULL OR q."id" <> ALL("late")
  ), "answered" AS (
    SELECT "id", max("createdAt") FILTER (WHERE NOT "asks") AS "at" FROM "written" GROUP BY "id"
  ), "per" AS (
    SELECT w."id", max(w."createdAt") AS "newest", a."at" AS "answered",
      min(w."createdAt") FILTER (WHERE w."asks" AND w."createdAt" > COALESCE(a."at", ''-infinity''::timestamp)) AS "asked"
    FROM "written" w JOIN "answered" a ON a."id" = w."id" GROUP BY w."id", a."at"
  )
  UPDATE "Request" r SET
    "last_activity_at" = GREATEST(r."last_activity_at", p."newest"),
    "waiting_since" = CASE WHEN p."answered" IS NULL THEN COALESCE(r."waiting_since", p."asked") ELSE p."asked" END
  FROM "per" p WHERE r."id" = p."id"\073
  RETURN NULL\073
END
';

CREATE TRIGGER "Message_activity_insert" AFTER INSERT ON "Message"
  REFERENCING NEW TABLE AS "changed_new" FOR EACH STATEMENT EXECUTE FUNCTION "Request_activity_written"();

-- A receipt (status) or an edit of the text moves nothing: only the messages whose request, sender
-- or time changed compute their requests (old and new) again.
CREATE FUNCTION "Request_activity_moved"() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
  PERFORM "Request_activity_recount"(array_agg(c."id_project"), array_agg(c."request_id")) FROM (
    SELECT DISTINCT x."id_project", x."request_id" FROM "changed_old" o JOIN "changed_new" n ON n."id" = o."id",
      LATERAL (VALUES (o."id_project", o."request_id"), (n."id_project", n."request_id")) AS x("id_project", "request_id")
    WHERE (o."id_project", o."request_id", o."sender", o."createdAt") IS DISTINCT FROM (n."id_project", n."request_id", n."sender", n."createdAt")
  ) AS c HAVING count(*) > 0\073
  RETURN NULL\073
END
';
CREATE TRIGGER "Message_activity_update" AFTER UPDATE ON "Message"
  REFERENCING OLD TABLE AS "changed_old" NEW TABLE AS "changed_new" FOR EACH STATEMENT EXECUTE FUNCTION "Request_activity_moved"();

-- The messages already there.
SELECT "Request_activity_recount"(array_agg("id_project"), array_agg("request_id")) FROM "Request";

-- The inbox's open views in each order: a page read in index order, newest activity first
-- (backward) and longest waiting first (forward, the answered ones after them).
CREATE INDEX "Request_open_last_activity_idx" ON "Request" ("id_project", (COALESCE("last_activity_at", "createdAt")), "id") WHERE "status" < 1000;
CREATE INDEX "Request_open_waiting_since_idx" ON "Request" ("id_project", "waiting_since", "id") WHERE "status" < 1000;
