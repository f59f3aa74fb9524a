-- AlterTable
ALTER TABLE "events" ADD COLUMN     "change" JSONB;
