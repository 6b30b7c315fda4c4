-- A request merged into another one keeps a pointer to it (the widget of the merged-away
-- conversation follows it to the surviving one).

-- AlterTable
ALTER TABLE "Request" ADD COLUMN "merged_into" TEXT;
