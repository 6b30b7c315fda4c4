-- AlterTable
ALTER TABLE "StoredFile" ADD COLUMN     "thumbnail" TEXT;
