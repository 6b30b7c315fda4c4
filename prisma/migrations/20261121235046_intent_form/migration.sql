-- AlterTable
ALTER TABLE "Intent" ADD COLUMN     "form" JSONB;
