-- AlterTable
ALTER TABLE "AssistantExample" ADD COLUMN "seq" BIGINT;

-- CreateIndex
CREATE INDEX "AssistantExample_id_project_seq_idx" ON "AssistantExample"("id_project", "seq");
