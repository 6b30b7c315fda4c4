-- AlterTable
ALTER TABLE "Department" ALTER COLUMN "routing" DROP NOT NULL;

-- AlterTable
ALTER TABLE "Project" ADD COLUMN     "jwtSecret" TEXT;

-- AlterTable
ALTER TABLE "Request" ALTER COLUMN "waiting_time" SET DATA TYPE DOUBLE PRECISION;

-- AlterTable
ALTER TABLE "User" ADD COLUMN     "externalId" TEXT,
ADD COLUMN     "externalProject" TEXT;

-- CreateIndex
CREATE UNIQUE INDEX "User_externalProject_externalId_key" ON "User"("externalProject", "externalId");
