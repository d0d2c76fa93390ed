-- AlterEnum
ALTER TYPE "ThreadReplyOutcome" ADD VALUE 'supplier_words';

-- AlterTable
ALTER TABLE "PurchaseOrderAllocation" ADD COLUMN     "acceptedAt" TIMESTAMP(3),
ADD COLUMN     "acceptedBySlackUserId" TEXT;

