-- CreateTable
CREATE TABLE "SlaPolicy" (
    "id" TEXT NOT NULL,
    "id_project" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "departments" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "priorities" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "first_response_seconds" INTEGER,
    "next_response_seconds" INTEGER,
    "resolution_seconds" INTEGER,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,
    "v" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "SlaPolicy_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "RequestSla" (
    "id_project" TEXT NOT NULL,
    "request_id" TEXT NOT NULL,
    "policyId" TEXT,
    "policyName" TEXT,
    "firstResponseDueAt" TIMESTAMP(3),
    "nextResponseDueAt" TIMESTAMP(3),
    "resolutionDueAt" TIMESTAMP(3),
    "breached" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "met" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "updatedAt" TIMESTAMP(3) NOT NULL,
    "v" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "RequestSla_pkey" PRIMARY KEY ("id_project","request_id")
);

-- CreateTable
CREATE TABLE "SlaTimer" (
    "id" TEXT NOT NULL,
    "id_project" TEXT NOT NULL,
    "request_id" TEXT NOT NULL,
    "target" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "due_at" TIMESTAMP(3) NOT NULL,
    "target_due_at" TIMESTAMP(3) NOT NULL,
    "policyId" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "fired_at" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,
    "v" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "SlaTimer_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "SlaBreach" (
    "id" TEXT NOT NULL,
    "id_project" TEXT NOT NULL,
    "request_id" TEXT NOT NULL,
    "target" TEXT NOT NULL,
    "policyId" TEXT NOT NULL,
    "due_at" TIMESTAMP(3) NOT NULL,
    "departmentId" TEXT,
    "agents" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "v" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "SlaBreach_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "SlaPolicy_id_project_createdAt_idx" ON "SlaPolicy"("id_project", "createdAt");

-- CreateIndex
CREATE INDEX "SlaTimer_status_due_at_idx" ON "SlaTimer"("status", "due_at");

-- CreateIndex
CREATE UNIQUE INDEX "SlaTimer_id_project_request_id_target_kind_key" ON "SlaTimer"("id_project", "request_id", "target", "kind");

-- CreateIndex
CREATE INDEX "SlaBreach_id_project_createdAt_idx" ON "SlaBreach"("id_project", "createdAt");
