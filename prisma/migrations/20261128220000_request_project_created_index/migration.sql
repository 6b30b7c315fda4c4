-- The project's requests newest first: search's bounded walk over the newest requests (a common
-- word) and the request lists sorted by creation over every status read this index instead of
-- sorting the project's requests
CREATE INDEX "Request_id_project_createdAt_idx" ON "Request"("id_project", "createdAt");
