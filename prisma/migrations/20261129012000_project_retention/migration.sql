-- A project's retention policy: closed conversations older than this many days are removed with
-- their messages and files by a background sweep. Null keeps them.

-- AlterTable
ALTER TABLE "Project" ADD COLUMN "retention_days" INTEGER;
