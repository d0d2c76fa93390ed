-- AlterTable
ALTER TABLE "ThreadReply" ADD COLUMN     "proposedOffer" JSONB;

