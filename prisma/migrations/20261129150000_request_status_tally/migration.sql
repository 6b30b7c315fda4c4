-- How many requests of each project are in each status, kept by triggers in the transaction of
-- the change itself, whoever writes "Request" (a creation, an assignment, a close, a reopen, a
-- deletion, retention, a merge, the seed). The inbox's views answer their count (the spec's list
-- shape): counting a year's 170,000 closed requests was a parallel index-only scan of 56-90 ms
-- on every read of the Closed view (issue 39), where summing these rows reads a few.
--
-- Each writer adds to its own rows: `slot` is its database connection's (its backend's process id
-- modulo 32), so concurrent closes of one project on different connections do not wait for each
-- other's commit on one locked row (the close rate issue 37 needs), and a count is the sum of a
-- project's slots. A statement that reads these rows sees the counts of exactly the requests it
-- sees: a writer holds its rows' locks until it commits.
--
-- NB: the PostgreSQL driver runs a migration as statements split at every semicolon, comments
-- and quotes included. Function bodies are therefore E'' strings whose semicolons are written
-- \073, and no comment here may hold one.

-- CreateTable
CREATE TABLE "RequestStatusTally" (
    "id_project" TEXT NOT NULL,
    "status" INTEGER NOT NULL,
    "slot" INTEGER NOT NULL,
    "requests" INTEGER NOT NULL,

    CONSTRAINT "RequestStatusTally_pkey" PRIMARY KEY ("id_project","status","slot")
);

-- Adds `delta` requests per (project, status) of the rows given, in key order (two statements
-- lock their rows in the same order), to the writer's slot. Rows left at zero are removed.
CREATE FUNCTION "Request_status_tally_add"(projects text[], statuses integer[], deltas integer[]) RETURNS void LANGUAGE plpgsql AS E'
BEGIN
  INSERT INTO "RequestStatusTally" AS t ("id_project", "status", "slot", "requests")
    SELECT c."id_project", c."status", pg_backend_pid() % 32, sum(c."delta")::int
    FROM unnest(projects, statuses, deltas) AS c("id_project", "status", "delta")
    GROUP BY 1, 2 HAVING sum(c."delta") <> 0 ORDER BY 1, 2
  ON CONFLICT ("id_project", "status", "slot") DO UPDATE SET "requests" = t."requests" + excluded."requests"\073
  DELETE FROM "RequestStatusTally" t USING unnest(projects, statuses) AS c("id_project", "status")
    WHERE t."id_project" = c."id_project" AND t."status" = c."status" AND t."slot" = pg_backend_pid() % 32 AND t."requests" = 0\073
END
';

CREATE FUNCTION "Request_status_tally_statement"() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
  IF TG_OP = ''TRUNCATE'' THEN
    DELETE FROM "RequestStatusTally"\073
  ELSIF TG_OP = ''INSERT'' THEN
    PERFORM "Request_status_tally_add"(array_agg("id_project"), array_agg("status"), array_agg(1)) FROM "changed_new" HAVING count(*) > 0\073
  ELSE
    PERFORM "Request_status_tally_add"(array_agg("id_project"), array_agg("status"), array_agg(-1)) FROM "changed_old" HAVING count(*) > 0\073
  END IF\073
  RETURN NULL\073
END
';

-- A request that changed status (or project) moves from one count to the other, in one statement.
CREATE FUNCTION "Request_status_tally_row"() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
  PERFORM "Request_status_tally_add"(ARRAY[OLD."id_project", NEW."id_project"], ARRAY[OLD."status", NEW."status"], ARRAY[-1, 1])\073
  RETURN NULL\073
END
';

-- One trigger per kind of statement: a trigger with transition tables may only have one event,
-- and an update trigger with them could not name its columns (it would run on every update of a
-- request, as each message's activity makes one).
CREATE TRIGGER "Request_status_tally_insert" AFTER INSERT ON "Request"
  REFERENCING NEW TABLE AS "changed_new" FOR EACH STATEMENT EXECUTE FUNCTION "Request_status_tally_statement"();
CREATE TRIGGER "Request_status_tally_delete" AFTER DELETE ON "Request"
  REFERENCING OLD TABLE AS "changed_old" FOR EACH STATEMENT EXECUTE FUNCTION "Request_status_tally_statement"();
CREATE TRIGGER "Request_status_tally_truncate" AFTER TRUNCATE ON "Request"
  FOR EACH STATEMENT EXECUTE FUNCTION "Request_status_tally_statement"();
CREATE TRIGGER "Request_status_tally_update" AFTER UPDATE OF "status", "id_project" ON "Request"
  FOR EACH ROW WHEN (OLD."status" IS DISTINCT FROM NEW."status" OR OLD."id_project" IS DISTINCT FROM NEW."id_project")
  EXECUTE FUNCTION "Request_status_tally_row"();

-- The requests already there.
INSERT INTO "RequestStatusTally" ("id_project", "status", "slot", "requests")
  SELECT "id_project", "status", 0, count(*) FROM "Request" GROUP BY 1, 2;
