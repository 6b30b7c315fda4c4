-- AlterTable
ALTER TABLE "Subscription" ADD COLUMN     "throttle" INTEGER;
