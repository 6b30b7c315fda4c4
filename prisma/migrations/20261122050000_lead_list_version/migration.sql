-- A version per project that changes whenever any of its leads is created, changed or deleted, so
-- the lead list can keep exact counts (a project's total, a segment's matches) and reuse them
-- until the project's leads change (src/modules/leads/query.ts).
--
-- Triggers keep it, in the transaction of the change itself, whoever writes "Lead": every
-- statement that writes a project's leads takes a new value of the sequence (never reused, even
-- for a row deleted and created again). A statement that reads the version sees exactly the leads
-- of that version: a writer holds the row's lock until it commits, so two transactions changing
-- one project's leads move it on one after the other, and none can commit a lead change without
-- a new version. Lead writes already end by locking the project's row (the event log) until they
-- commit, so this adds little waiting of its own.
--
-- NB: the PostgreSQL driver runs a migration as statements split at every semicolon, comments
-- and quotes included. The function body is therefore an E'' string whose semicolons are written
-- \073, and no comment here may hold one.

-- CreateTable
CREATE TABLE "LeadListVersion" (
    "id_project" TEXT NOT NULL,
    "version" BIGSERIAL NOT NULL,

    CONSTRAINT "LeadListVersion_pkey" PRIMARY KEY ("id_project")
);

-- Moves on the version of every project a statement wrote leads of, in project order (so two
-- statements over several projects lock them in the same order). The transition tables are
-- "changed_new" (INSERT, UPDATE) and "changed_old" (UPDATE, DELETE). TRUNCATE moves every project on.
CREATE FUNCTION "Lead_list_version_bump"() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
  IF TG_OP = ''TRUNCATE'' THEN
    UPDATE "LeadListVersion" SET "version" = nextval(''"LeadListVersion_version_seq"'')\073
  ELSIF TG_OP = ''INSERT'' THEN
    INSERT INTO "LeadListVersion" ("id_project")
      SELECT DISTINCT "id_project" FROM "changed_new" ORDER BY 1
      ON CONFLICT ("id_project") DO UPDATE SET "version" = nextval(''"LeadListVersion_version_seq"'')\073
  ELSIF TG_OP = ''DELETE'' THEN
    INSERT INTO "LeadListVersion" ("id_project")
      SELECT DISTINCT "id_project" FROM "changed_old" ORDER BY 1
      ON CONFLICT ("id_project") DO UPDATE SET "version" = nextval(''"LeadListVersion_version_seq"'')\073
  ELSE
    INSERT INTO "LeadListVersion" ("id_project")
      SELECT "id_project" FROM "changed_new" UNION SELECT "id_project" FROM "changed_old" ORDER BY 1
      ON CONFLICT ("id_project") DO UPDATE SET "version" = nextval(''"LeadListVersion_version_seq"'')\073
  END IF\073
  RETURN NULL\073
END
';

-- One trigger per kind of statement: a trigger with transition tables may only have one event.
CREATE TRIGGER "Lead_list_version_insert" AFTER INSERT ON "Lead"
  REFERENCING NEW TABLE AS "changed_new" FOR EACH STATEMENT EXECUTE FUNCTION "Lead_list_version_bump"();
CREATE TRIGGER "Lead_list_version_update" AFTER UPDATE ON "Lead"
  REFERENCING OLD TABLE AS "changed_old" NEW TABLE AS "changed_new" FOR EACH STATEMENT EXECUTE FUNCTION "Lead_list_version_bump"();
CREATE TRIGGER "Lead_list_version_delete" AFTER DELETE ON "Lead"
  REFERENCING OLD TABLE AS "changed_old" FOR EACH STATEMENT EXECUTE FUNCTION "Lead_list_version_bump"();
CREATE TRIGGER "Lead_list_version_truncate" AFTER TRUNCATE ON "Lead"
  FOR EACH STATEMENT EXECUTE FUNCTION "Lead_list_version_bump"();

-- The projects that already have leads start with a version.
INSERT INTO "LeadListVersion" ("id_project") SELECT DISTINCT "id_project" FROM "Lead" ORDER BY 1;
