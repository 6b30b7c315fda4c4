-- CreateTable
CREATE TABLE "BotTurn" (
    "messageId" TEXT NOT NULL,
    "id_project" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "BotTurn_pkey" PRIMARY KEY ("messageId")
);
