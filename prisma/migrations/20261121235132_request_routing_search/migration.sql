-- AlterTable
ALTER TABLE "Request" ADD COLUMN     "id_group" TEXT;

-- Full-text search over message text (GET /requests?full_text=...).
CREATE INDEX "Message_text_fts_idx" ON "Message" USING GIN (to_tsvector('simple', "text"));

-- Tag filter of the request list.
CREATE INDEX "Request_tags_idx" ON "Request" USING GIN ("tags" jsonb_path_ops);
