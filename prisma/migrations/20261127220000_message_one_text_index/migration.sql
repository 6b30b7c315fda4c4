-- One full-text index on message text: the request list's `full_text` filter reads the English
-- stems of "search" (GET /search's) instead of a second GIN index over the unstemmed words, which
-- every message insert paid for as well
DROP INDEX IF EXISTS "Message_text_fts_idx";
