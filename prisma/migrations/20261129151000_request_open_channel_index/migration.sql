-- The inbox's open views filtered by channel: nearly every open request of a widget-first team is
-- `chat21`, so the (project, channel) index found every request of the project on that channel,
-- open or closed, and read each from the table to keep the open ones (212 ms at a year's size,
-- issue 39). Over the open requests only, with their status, a page is read in order and the
-- count from the index alone.
CREATE INDEX "Request_open_channel_idx" ON "Request" ("id_project", "channelName", "createdAt", "id") INCLUDE ("status") WHERE "status" < 1000;
