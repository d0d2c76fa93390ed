-- AlterTable
ALTER TABLE "Negotiation" ADD COLUMN     "supplierReplyDays" INTEGER NOT NULL DEFAULT 2;

-- AlterTable
ALTER TABLE "NegotiationSupplier" ADD COLUMN     "replyBy" TIMESTAMP(3),
ADD COLUMN     "replyRemindedAt" TIMESTAMP(3),
ADD COLUMN     "replyRound" INTEGER;

