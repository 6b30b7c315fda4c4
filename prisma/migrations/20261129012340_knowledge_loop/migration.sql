-- The knowledge loop's proposals (gaps the knowledge base could not answer, grouped) and the
-- knowledge bases' batch tests with their runs (issue 37).

-- CreateTable
CREATE TABLE "KbProposal" (
    "id" TEXT NOT NULL,
    "id_project" TEXT NOT NULL,
    "namespace" TEXT NOT NULL,
    "question" TEXT NOT NULL,
    "answer" TEXT NOT NULL,
    "edited" BOOLEAN NOT NULL DEFAULT false,
    "status" TEXT NOT NULL DEFAULT 'open',
    "count" INTEGER NOT NULL DEFAULT 0,
    "content_id" TEXT,
    "decidedBy" TEXT,
    "decidedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,
    "v" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "KbProposal_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "KbGap" (
    "id" TEXT NOT NULL,
    "id_project" TEXT NOT NULL,
    "request_id" TEXT NOT NULL,
    "proposal_id" TEXT NOT NULL,
    "question" TEXT NOT NULL,
    "answer" TEXT NOT NULL,
    "terms" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "KbGap_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "KbTestCase" (
    "id" TEXT NOT NULL,
    "id_project" TEXT NOT NULL,
    "namespace" TEXT NOT NULL,
    "question" TEXT NOT NULL,
    "expected" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "KbTestCase_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "KbTestRun" (
    "id" TEXT NOT NULL,
    "id_project" TEXT NOT NULL,
    "namespace" TEXT NOT NULL,
    "trigger" TEXT NOT NULL,
    "total" INTEGER NOT NULL,
    "passed" INTEGER NOT NULL,
    "failures" JSONB NOT NULL DEFAULT '[]',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "KbTestRun_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "KbProposal_id_project_status_count_idx" ON "KbProposal"("id_project", "status", "count");

-- CreateIndex
CREATE INDEX "KbGap_proposal_id_idx" ON "KbGap"("proposal_id");

-- CreateIndex
CREATE INDEX "KbGap_terms_idx" ON "KbGap" USING GIN ("terms");

-- CreateIndex
CREATE UNIQUE INDEX "KbGap_id_project_request_id_key" ON "KbGap"("id_project", "request_id");

-- CreateIndex
CREATE INDEX "KbTestCase_id_project_namespace_position_idx" ON "KbTestCase"("id_project", "namespace", "position");

-- CreateIndex
CREATE INDEX "KbTestRun_id_project_namespace_createdAt_idx" ON "KbTestRun"("id_project", "namespace", "createdAt");
