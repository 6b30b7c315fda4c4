-- Knowledge-base indexing: uploaded documents, index submissions, and full-text search on chunks.

-- AlterTable
ALTER TABLE "KbContent" ADD COLUMN     "file" TEXT,
ADD COLUMN     "indexSeq" INTEGER NOT NULL DEFAULT 0;

-- AlterTable
-- Generated rather than written by the application, so every chunk is searchable whoever inserts it.
-- schema.prisma describes it as a dbgenerated default, which Prisma compares as equal.
ALTER TABLE "KbChunk" ADD COLUMN     "search" tsvector GENERATED ALWAYS AS (to_tsvector('english'::regconfig, "text")) STORED;

-- CreateIndex
-- A small pending list: entries not yet merged into the index are scanned by every search.
CREATE INDEX "KbChunk_search_idx" ON "KbChunk" USING GIN ("search") WITH (gin_pending_list_limit = 256);

-- AddForeignKey
ALTER TABLE "KbChunk" ADD CONSTRAINT "KbChunk_contentId_fkey" FOREIGN KEY ("contentId") REFERENCES "KbContent"("id") ON DELETE CASCADE ON UPDATE CASCADE;
