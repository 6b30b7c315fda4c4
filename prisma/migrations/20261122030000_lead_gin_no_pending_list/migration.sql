-- The lead list's GIN indexes (tags, and the contact words of full_text search) without the "fast
-- update" pending list. With it, new leads are appended to an unsorted list that every search
-- reads through in full until a VACUUM merges it into the index: 10,000 freshly imported leads
-- made each tags or full_text search scan all of them (about 3 ms a query instead of 0.3 ms).
-- Inserts now update the index directly, a little slower each, and lists stay fast between vacuums.
-- Storage parameters are not part of Prisma's schema, so this lives here only.
ALTER INDEX "Lead_tags_idx" SET (fastupdate = off);
ALTER INDEX "Lead_contact_words_idx" SET (fastupdate = off);

-- Merge what is already pending (a no-op on a new database).
SELECT gin_clean_pending_list('"Lead_tags_idx"'::regclass);
SELECT gin_clean_pending_list('"Lead_contact_words_idx"'::regclass);
