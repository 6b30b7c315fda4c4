-- The agent's assistant learns from closed conversations: each one becomes an example (what the
-- visitor asked, what the agent answered, the tags put on it), found again by its stems through a
-- GIN index. AssistantTerm keeps each stem's document frequency per project (the empty term holds
-- the project's example count), so ranking weighs rare words without counting at query time.
-- CreateTable
CREATE TABLE "AssistantExample" (
    "id" TEXT NOT NULL,
    "id_project" TEXT NOT NULL,
    "request_id" TEXT NOT NULL,
    "question" TEXT NOT NULL,
    "answer" TEXT NOT NULL,
    "terms" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "tags" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,
    "v" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "AssistantExample_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "AssistantTerm" (
    "id_project" TEXT NOT NULL,
    "term" TEXT NOT NULL,
    "df" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "AssistantTerm_pkey" PRIMARY KEY ("id_project","term")
);

-- CreateIndex
CREATE UNIQUE INDEX "AssistantExample_id_project_request_id_key" ON "AssistantExample"("id_project", "request_id");

-- CreateIndex
CREATE INDEX "AssistantExample_terms_idx" ON "AssistantExample" USING GIN ("terms");
