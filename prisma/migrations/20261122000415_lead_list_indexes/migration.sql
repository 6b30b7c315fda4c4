-- CreateIndex
CREATE INDEX "Lead_id_project_updatedAt_id_idx" ON "Lead"("id_project", "updatedAt", "id");

-- CreateIndex
CREATE INDEX "Lead_id_project_fullname_id_idx" ON "Lead"("id_project", "fullname", "id");

-- CreateIndex
CREATE INDEX "Lead_id_project_company_id_idx" ON "Lead"("id_project", "company", "id");

-- CreateIndex
CREATE INDEX "Lead_tags_idx" ON "Lead" USING GIN ("tags");

-- The words of a lead's name, e-mail (split at @ and dots) and company, for GET /leads?full_text=.
-- An expression index: Prisma cannot describe it, so it lives here only (src/modules/leads/query.ts
-- must use the same expression).
CREATE INDEX "Lead_contact_words_idx" ON "Lead" USING GIN (
  to_tsvector('simple'::regconfig, coalesce("fullname", '') || ' ' || translate(coalesce("email", ''), '@.', '  ') || ' ' || coalesce("company", ''))
);
