-- Each agent's load (ProjectUser.number_assigned_requests) is recounted in the transaction of every
-- change of who serves a request: a close, an assignment, a hand-over. The count asked for the open
-- requests in which the agent takes part with `= ANY(participatingAgents)`, which no index answers,
-- so it read every request of the project: 6.8 s at 200,000 conversations on a cold cache, and
-- tens of milliseconds warm, under the agent's row lock, which held a team of 100,000 closed
-- conversations to 13-19 closes a second. The open requests' agents, in a GIN index of their own
-- (closed requests are most of a project and never counted), answer `@>` in 10 ms there.
-- A partial index cannot be written in schema.prisma: this migration is its only source.
CREATE INDEX "Request_open_participatingAgents_idx" ON "Request" USING GIN ("participatingAgents") WHERE "status" <> 1000;
