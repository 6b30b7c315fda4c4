-- Knowledge-base retrieval ranks by BM25 over two fields: the question of an faq content (heading)
-- and the chunk text. The indexing job writes their stems (light stemming, stop words kept: see
-- src/modules/kb/stems.ts), and the tsvector (heading with weight A) and the lengths in words are
-- generated from them.
ALTER TABLE "KbChunk" ADD COLUMN "heading" TEXT NOT NULL DEFAULT '';
ALTER TABLE "KbChunk" ADD COLUMN "stems" TEXT NOT NULL DEFAULT '';
ALTER TABLE "KbChunk" ADD COLUMN "headingStems" TEXT NOT NULL DEFAULT '';

-- Chunks indexed before: the first line of an faq content is its question, and their words stand in
-- for stems (unstemmed) until the content is indexed again.
UPDATE "KbChunk" c SET "heading" = btrim(split_part(k."content", E'\n', 1))
FROM "KbContent" k
WHERE k."id" = c."contentId" AND k."type" = 'faq';
UPDATE "KbChunk" SET "stems" = array_to_string(tsvector_to_array(to_tsvector('simple'::regconfig, "text")), ' '),
                     "headingStems" = array_to_string(tsvector_to_array(to_tsvector('simple'::regconfig, "heading")), ' ');

DROP INDEX "KbChunk_search_idx";
ALTER TABLE "KbChunk" DROP COLUMN "search";
ALTER TABLE "KbChunk" ADD COLUMN "search" tsvector GENERATED ALWAYS AS ((setweight(to_tsvector('simple'::regconfig, "headingStems"), 'A'::"char") || to_tsvector('simple'::regconfig, "stems"))) STORED;
ALTER TABLE "KbChunk" ADD COLUMN "terms" INTEGER GENERATED ALWAYS AS (cardinality(string_to_array("stems", ' '::text))) STORED;
ALTER TABLE "KbChunk" ADD COLUMN "headingTerms" INTEGER GENERATED ALWAYS AS (cardinality(string_to_array("headingStems", ' '::text))) STORED;
CREATE INDEX "KbChunk_search_idx" ON "KbChunk" USING GIN ("search") WITH (gin_pending_list_limit = 256);

-- An internal bot may answer from a knowledge base what none of its intents matches.
ALTER TABLE "Bot" ADD COLUMN "kb_namespace" TEXT;
