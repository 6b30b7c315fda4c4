-- The assistant's summary of a conversation: the latest one per request, asked for by an agent or
-- made when a bot hands the conversation to a human (by is then null).
-- CreateTable
CREATE TABLE "AssistantSummary" (
    "id" TEXT NOT NULL,
    "id_project" TEXT NOT NULL,
    "request_id" TEXT NOT NULL,
    "summary" TEXT NOT NULL,
    "method" TEXT NOT NULL,
    "by" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,
    "v" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "AssistantSummary_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "AssistantSummary_id_project_request_id_key" ON "AssistantSummary"("id_project", "request_id");
