-- Knowledge bases learn from agents: a question an agent confirms a content answers becomes a learned
-- phrasing of it, ranked through a chunk of its own (heading only, phrasingId set), feedback keeps
-- the agents verdicts of not helpful (that content does not answer that question first again) and
-- counts the thumbs of visitors on bot answers.
-- AlterTable
ALTER TABLE "KbChunk" ADD COLUMN     "phrasingId" TEXT;

-- AlterTable
ALTER TABLE "KbContent" ADD COLUMN     "helpfulCount" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "unhelpfulCount" INTEGER NOT NULL DEFAULT 0;

-- CreateTable
CREATE TABLE "KbPhrasing" (
    "id" TEXT NOT NULL,
    "id_project" TEXT NOT NULL,
    "namespace" TEXT NOT NULL,
    "contentId" TEXT NOT NULL,
    "question" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "createdBy" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,
    "v" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "KbPhrasing_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "KbFeedback" (
    "id" TEXT NOT NULL,
    "id_project" TEXT NOT NULL,
    "namespace" TEXT NOT NULL,
    "contentId" TEXT NOT NULL,
    "question" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "helpful" BOOLEAN NOT NULL,
    "origin" TEXT NOT NULL,
    "request_id" TEXT,
    "message_id" TEXT,
    "createdBy" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,
    "v" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "KbFeedback_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "KbPhrasing_id_project_namespace_createdAt_idx" ON "KbPhrasing"("id_project", "namespace", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "KbPhrasing_contentId_key_key" ON "KbPhrasing"("contentId", "key");

-- CreateIndex
CREATE INDEX "KbFeedback_id_project_namespace_key_idx" ON "KbFeedback"("id_project", "namespace", "key");

-- CreateIndex
CREATE INDEX "KbFeedback_contentId_idx" ON "KbFeedback"("contentId");

-- CreateIndex
CREATE INDEX "KbChunk_phrasingId_idx" ON "KbChunk"("phrasingId");

-- AddForeignKey
ALTER TABLE "KbChunk" ADD CONSTRAINT "KbChunk_phrasingId_fkey" FOREIGN KEY ("phrasingId") REFERENCES "KbPhrasing"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "KbPhrasing" ADD CONSTRAINT "KbPhrasing_contentId_fkey" FOREIGN KEY ("contentId") REFERENCES "KbContent"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "KbFeedback" ADD CONSTRAINT "KbFeedback_contentId_fkey" FOREIGN KEY ("contentId") REFERENCES "KbContent"("id") ON DELETE CASCADE ON UPDATE CASCADE;
