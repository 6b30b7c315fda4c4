-- How many messages each sender wrote in each request, kept by triggers in the transaction of the
-- change itself, whoever writes "Message" (a post, the batched post, an import, a merge moving
-- messages, a deletion, the seed). A request's `unread` for a teammate who never marked it seen
-- is every message from others: counting them had been a scan of the whole conversation on every
-- read (100,000 messages: 20 to 60 ms, most of a search answer that shows the request, issue 39).
-- The sum of its senders' rows here reads a few rows. A statement that reads these rows sees the
-- counts of exactly the messages it sees: a writer holds a row's lock until it commits.
--
-- NB: the PostgreSQL driver runs a migration as statements split at every semicolon, comments
-- and quotes included. The function body is therefore an E'' string whose semicolons are written
-- \073, and no comment here may hold one.

-- CreateTable
CREATE TABLE "RequestMessageTally" (
    "id_project" TEXT NOT NULL,
    "request_id" TEXT NOT NULL,
    "sender" TEXT NOT NULL,
    "messages" INTEGER NOT NULL,

    CONSTRAINT "RequestMessageTally_pkey" PRIMARY KEY ("id_project","request_id","sender")
);

-- Adds what a statement wrote (rows of "changed_new") and takes off what it removed (rows of
-- "changed_old"), per request and sender, in key order (so two statements over the same requests
-- lock their rows in the same order). An update that moves no message (a receipt) writes nothing.
-- A row left at zero (or below, should the tally have been emptied before the messages, as a
-- project's purge could) is removed. TRUNCATE empties the tally.
CREATE FUNCTION "Message_tally_move"() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
  IF TG_OP = ''TRUNCATE'' THEN
    DELETE FROM "RequestMessageTally"\073
  ELSIF TG_OP = ''INSERT'' THEN
    INSERT INTO "RequestMessageTally" ("id_project", "request_id", "sender", "messages")
      SELECT "id_project", "request_id", "sender", count(*) FROM "changed_new" GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
      ON CONFLICT ("id_project", "request_id", "sender") DO UPDATE SET "messages" = "RequestMessageTally"."messages" + excluded."messages"\073
  ELSIF TG_OP = ''DELETE'' THEN
    INSERT INTO "RequestMessageTally" ("id_project", "request_id", "sender", "messages")
      SELECT "id_project", "request_id", "sender", -count(*) FROM "changed_old" GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
      ON CONFLICT ("id_project", "request_id", "sender") DO UPDATE SET "messages" = "RequestMessageTally"."messages" + excluded."messages"\073
    DELETE FROM "RequestMessageTally" t USING (SELECT DISTINCT "id_project", "request_id", "sender" FROM "changed_old") AS o
      WHERE t."id_project" = o."id_project" AND t."request_id" = o."request_id" AND t."sender" = o."sender" AND t."messages" <= 0\073
  ELSE
    INSERT INTO "RequestMessageTally" ("id_project", "request_id", "sender", "messages")
      SELECT "id_project", "request_id", "sender", sum("n") FROM (
        SELECT "id_project", "request_id", "sender", 1 AS "n" FROM "changed_new"
        UNION ALL SELECT "id_project", "request_id", "sender", -1 FROM "changed_old"
      ) AS "moved" GROUP BY 1, 2, 3 HAVING sum("n") <> 0 ORDER BY 1, 2, 3
      ON CONFLICT ("id_project", "request_id", "sender") DO UPDATE SET "messages" = "RequestMessageTally"."messages" + excluded."messages"\073
    IF FOUND THEN
      DELETE FROM "RequestMessageTally" t USING (SELECT DISTINCT "id_project", "request_id", "sender" FROM "changed_old") AS o
        WHERE t."id_project" = o."id_project" AND t."request_id" = o."request_id" AND t."sender" = o."sender" AND t."messages" <= 0\073
    END IF\073
  END IF\073
  RETURN NULL\073
END
';

-- One trigger per kind of statement: a trigger with transition tables may only have one event.
CREATE TRIGGER "Message_tally_insert" AFTER INSERT ON "Message"
  REFERENCING NEW TABLE AS "changed_new" FOR EACH STATEMENT EXECUTE FUNCTION "Message_tally_move"();
CREATE TRIGGER "Message_tally_update" AFTER UPDATE ON "Message"
  REFERENCING OLD TABLE AS "changed_old" NEW TABLE AS "changed_new" FOR EACH STATEMENT EXECUTE FUNCTION "Message_tally_move"();
CREATE TRIGGER "Message_tally_delete" AFTER DELETE ON "Message"
  REFERENCING OLD TABLE AS "changed_old" FOR EACH STATEMENT EXECUTE FUNCTION "Message_tally_move"();
CREATE TRIGGER "Message_tally_truncate" AFTER TRUNCATE ON "Message"
  FOR EACH STATEMENT EXECUTE FUNCTION "Message_tally_move"();

-- The messages already there.
INSERT INTO "RequestMessageTally" ("id_project", "request_id", "sender", "messages")
  SELECT "id_project", "request_id", "sender", count(*) FROM "Message" GROUP BY 1, 2, 3 ORDER BY 1, 2, 3;
