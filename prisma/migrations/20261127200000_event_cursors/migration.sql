-- One way to consume committed events: every consumer (webhooks, bots, e-mail notifications) has a
-- cursor per project, the last sequence it handled. The e-mail cursors move over. The webhook
-- cursor starts before the first event not yet dispatched (dispatchedAt goes). The bots start at
-- each project's last event (their turns so far were taken from the commit).

-- CreateTable
CREATE TABLE "EventCursor" (
    "consumer" TEXT NOT NULL,
    "id_project" TEXT NOT NULL,
    "seq" BIGINT NOT NULL DEFAULT 0,
    "claimedBy" TEXT,
    "claimedUntil" TIMESTAMP(3),
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "EventCursor_pkey" PRIMARY KEY ("consumer","id_project")
);

INSERT INTO "EventCursor" ("consumer", "id_project", "seq", "updatedAt")
SELECT 'email-notifications', "id_project", "seq", CURRENT_TIMESTAMP FROM "NotificationCursor";

INSERT INTO "EventCursor" ("consumer", "id_project", "seq", "updatedAt")
SELECT 'webhooks', p."id",
  COALESCE((SELECT MIN(e."seq") - 1 FROM "DomainEvent" e WHERE e."id_project" = p."id" AND e."dispatchedAt" IS NULL), p."eventSeq"),
  CURRENT_TIMESTAMP
FROM "Project" p;

INSERT INTO "EventCursor" ("consumer", "id_project", "seq", "updatedAt")
SELECT 'bots', p."id", p."eventSeq", CURRENT_TIMESTAMP FROM "Project" p;

-- DropTable
DROP TABLE "NotificationCursor";

-- DropIndex
DROP INDEX "DomainEvent_dispatchedAt_createdAt_idx";

-- DropIndex
DROP INDEX "DomainEvent_id_project_dispatchedAt_seq_idx";

-- AlterTable
ALTER TABLE "DomainEvent" DROP COLUMN "dispatchedAt";
