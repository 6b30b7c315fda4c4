-- CreateIndex
CREATE INDEX "DomainEvent_subject_idx" ON "DomainEvent"("subject");
