-- How many messages each project's requesters wrote (received) and everyone else wrote (sent) in
-- each hour, kept by triggers on "Message" in the transaction of the change itself, whoever writes
-- it (a post, the batched post, an import, a merge moving messages, a deletion, the seed). The
-- analytics' messages/count joined the window's messages (170,000 in 30 days at a year's size) to
-- their requests to tell the two sides apart: 0.7-1 s (issue 39). Summed from these rows, with
-- the window's first, partial hour counted from its messages, it reads a few hundred rows.
--
-- The requester is the request's `createdBy` (the user who opened it, as the request's activity
-- reads it), which no write changes. Messages are deleted before their request (a request's
-- deletion, retention, a lead's erasure, a project's purge, which empties "Message" before
-- "Request"), so a deletion finds the side of each message from its request.
--
-- Each writer adds to its own rows: `slot` is its database connection's (its backend's process
-- id modulo 32), so posts of one project on different connections do not wait for each other's
-- commit on one locked row. A reader sums a project's slots.
--
-- NB: the PostgreSQL driver runs a migration as statements split at every semicolon, comments
-- and quotes included. Function bodies are therefore E'' strings whose semicolons are written
-- \073, and no comment here may hold one.

-- CreateTable
CREATE TABLE "MessageHourlyTally" (
    "id_project" TEXT NOT NULL,
    "hour" TIMESTAMP(3) NOT NULL,
    "received" BOOLEAN NOT NULL,
    "slot" INTEGER NOT NULL,
    "messages" INTEGER NOT NULL,

    CONSTRAINT "MessageHourlyTally_pkey" PRIMARY KEY ("id_project","hour","received","slot")
);

-- Adds `delta` per (project, hour, side) of the messages given, in key order (two statements
-- lock their rows in the same order), to the writer's slot. Rows left at zero are removed.
CREATE FUNCTION "Message_hourly_tally_add"(projects text[], requests text[], senders text[], times timestamp[], deltas integer[]) RETURNS void LANGUAGE plpgsql AS E'
BEGIN
  WITH "counted" AS (
    SELECT c."id_project", date_trunc(''hour'', c."createdAt") AS "hour", c."sender" IS NOT DISTINCT FROM r."createdBy" AS "received", sum(c."delta")::int AS "messages"
    FROM unnest(projects, requests, senders, times, deltas) AS c("id_project", "request_id", "sender", "createdAt", "delta")
    LEFT JOIN "Request" r ON r."id_project" = c."id_project" AND r."request_id" = c."request_id"
    GROUP BY 1, 2, 3 HAVING sum(c."delta") <> 0
  )
  INSERT INTO "MessageHourlyTally" AS t ("id_project", "hour", "received", "slot", "messages")
    SELECT "id_project", "hour", "received", pg_backend_pid() % 32, "messages" FROM "counted" ORDER BY 1, 2, 3
  ON CONFLICT ("id_project", "hour", "received", "slot") DO UPDATE SET "messages" = t."messages" + excluded."messages"\073
  DELETE FROM "MessageHourlyTally" t
    WHERE t."slot" = pg_backend_pid() % 32 AND t."messages" = 0
      AND (t."id_project", t."hour") IN (SELECT c."id_project", date_trunc(''hour'', c."createdAt") FROM unnest(projects, times) AS c("id_project", "createdAt"))\073
END
';

CREATE FUNCTION "Message_hourly_tally_move"() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
  IF TG_OP = ''TRUNCATE'' THEN
    DELETE FROM "MessageHourlyTally"\073
  ELSIF TG_OP = ''INSERT'' THEN
    -- The path of posts, from the rows of the statement itself: it only adds, so no row reaches zero.
    INSERT INTO "MessageHourlyTally" AS t ("id_project", "hour", "received", "slot", "messages")
      SELECT c."id_project", date_trunc(''hour'', c."createdAt"), c."sender" IS NOT DISTINCT FROM r."createdBy", pg_backend_pid() % 32, count(*)::int
      FROM "changed_new" c LEFT JOIN "Request" r ON r."id_project" = c."id_project" AND r."request_id" = c."request_id"
      GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
    ON CONFLICT ("id_project", "hour", "received", "slot") DO UPDATE SET "messages" = t."messages" + excluded."messages"\073
  ELSIF TG_OP = ''DELETE'' THEN
    PERFORM "Message_hourly_tally_add"(array_agg("id_project"), array_agg("request_id"), array_agg("sender"), array_agg("createdAt"), array_agg(-1))
      FROM "changed_old" HAVING count(*) > 0\073
  ELSE
    -- Only the messages whose project, request, sender or time changed (a receipt moves nothing).
    PERFORM "Message_hourly_tally_add"(array_agg(x."id_project"), array_agg(x."request_id"), array_agg(x."sender"), array_agg(x."createdAt"), array_agg(x."delta"))
      FROM "changed_old" o JOIN "changed_new" n ON n."id" = o."id",
        LATERAL (VALUES (o."id_project", o."request_id", o."sender", o."createdAt", -1), (n."id_project", n."request_id", n."sender", n."createdAt", 1))
          AS x("id_project", "request_id", "sender", "createdAt", "delta")
      WHERE (o."id_project", o."request_id", o."sender", o."createdAt") IS DISTINCT FROM (n."id_project", n."request_id", n."sender", n."createdAt")
      HAVING count(*) > 0\073
  END IF\073
  RETURN NULL\073
END
';

-- One trigger per kind of statement: a trigger with transition tables may only have one event.
CREATE TRIGGER "Message_hourly_tally_insert" AFTER INSERT ON "Message"
  REFERENCING NEW TABLE AS "changed_new" FOR EACH STATEMENT EXECUTE FUNCTION "Message_hourly_tally_move"();
CREATE TRIGGER "Message_hourly_tally_delete" AFTER DELETE ON "Message"
  REFERENCING OLD TABLE AS "changed_old" FOR EACH STATEMENT EXECUTE FUNCTION "Message_hourly_tally_move"();
CREATE TRIGGER "Message_hourly_tally_update" AFTER UPDATE ON "Message"
  REFERENCING OLD TABLE AS "changed_old" NEW TABLE AS "changed_new" FOR EACH STATEMENT EXECUTE FUNCTION "Message_hourly_tally_move"();
CREATE TRIGGER "Message_hourly_tally_truncate" AFTER TRUNCATE ON "Message"
  FOR EACH STATEMENT EXECUTE FUNCTION "Message_hourly_tally_move"();

-- The messages already there.
INSERT INTO "MessageHourlyTally" ("id_project", "hour", "received", "slot", "messages")
  SELECT m."id_project", date_trunc('hour', m."createdAt"), m."sender" IS NOT DISTINCT FROM r."createdBy", 0, count(*)
  FROM "Message" m LEFT JOIN "Request" r ON r."id_project" = m."id_project" AND r."request_id" = m."request_id"
  GROUP BY 1, 2, 3;
