-- AlterTable
ALTER TABLE "Subscription" ADD COLUMN     "activeSince" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
ADD COLUMN     "disabledAt" TIMESTAMP(3),
ADD COLUMN     "disabledReason" TEXT;

-- AlterTable
ALTER TABLE "WebhookDelivery" ADD COLUMN     "event" TEXT NOT NULL;

-- CreateTable
CREATE TABLE "WebhookPayload" (
    "eventId" TEXT NOT NULL,
    "id_project" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "payload" JSONB NOT NULL,
    "occurredAt" TIMESTAMP(3) NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "WebhookPayload_pkey" PRIMARY KEY ("eventId")
);

-- CreateIndex
CREATE INDEX "DomainEvent_id_project_dispatchedAt_seq_idx" ON "DomainEvent"("id_project", "dispatchedAt", "seq");

-- CreateIndex
CREATE INDEX "WebhookDelivery_status_nextAttemptAt_idx" ON "WebhookDelivery"("status", "nextAttemptAt");

-- AddForeignKey
ALTER TABLE "WebhookDelivery" ADD CONSTRAINT "WebhookDelivery_subscriptionId_fkey" FOREIGN KEY ("subscriptionId") REFERENCES "Subscription"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "WebhookDelivery" ADD CONSTRAINT "WebhookDelivery_eventId_fkey" FOREIGN KEY ("eventId") REFERENCES "WebhookPayload"("eventId") ON DELETE CASCADE ON UPDATE CASCADE;
