-- The inbox's Unassigned view: open requests no human agent serves (`cardinality(participatingAgents) = 0`),
-- newest first, and their count. The (project, status, createdAt) index finds every open request of
-- the project, and each row then had to be read from the table for its agents: about 150 ms for the
-- page and as much again for the count at 200,000 conversations (30,000 open, 9,500 unassigned).
-- This index holds only the open requests without an agent, in the page's order and with their
-- status, so the page is its first 50 entries (0.1 ms) and the count reads the index alone (5 ms).
-- A partial index cannot be written in schema.prisma: this migration is its only source (as the
-- message tally's triggers are theirs), so `npm run db:diff` lists it as a difference to ignore.
CREATE INDEX "Request_unassigned_idx" ON "Request" ("id_project", "createdAt", "id") INCLUDE ("status")
  WHERE cardinality("participatingAgents") = 0 AND "status" < 1000;
