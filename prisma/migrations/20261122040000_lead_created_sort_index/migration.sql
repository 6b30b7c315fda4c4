-- The newest-first lead list sorts by ("createdAt", "id"): with "id" in the index, the ids of any
-- page are read from the index alone, in order, like the other sort indexes.
DROP INDEX "Lead_id_project_createdAt_idx";
CREATE INDEX "Lead_id_project_createdAt_id_idx" ON "Lead"("id_project", "createdAt", "id");
