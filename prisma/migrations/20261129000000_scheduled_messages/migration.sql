-- Messages an agent wrote to be sent later. The row is its own durable timer: a sweep in every
-- node sends the due ones, and the send moves the row from scheduled to sent in the transaction
-- that writes the message, so a crash or a second node neither loses nor repeats it.

-- CreateTable
CREATE TABLE "ScheduledMessage" (
    "id" TEXT NOT NULL,
    "id_project" TEXT NOT NULL,
    "request_id" TEXT NOT NULL,
    "sender" TEXT NOT NULL,
    "text" TEXT NOT NULL,
    "attributes" JSONB NOT NULL DEFAULT '{}',
    "scheduled_at" TIMESTAMP(3) NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'scheduled',
    "messageId" TEXT,
    "reason" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,
    "v" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "ScheduledMessage_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "ScheduledMessage_status_scheduled_at_idx" ON "ScheduledMessage"("status", "scheduled_at");

-- CreateIndex
CREATE INDEX "ScheduledMessage_id_project_request_id_idx" ON "ScheduledMessage"("id_project", "request_id");
