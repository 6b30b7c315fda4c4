-- The beginning of a lead's e-mail in any case, for GET /leads?email= (an expression index, SQL only:
-- src/modules/leads/query.ts must use the same expression).
CREATE INDEX "Lead_id_project_email_lower_idx" ON "Lead" ("id_project", lower("email") text_pattern_ops);
