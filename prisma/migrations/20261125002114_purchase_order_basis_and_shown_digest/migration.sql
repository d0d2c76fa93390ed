-- AlterTable
ALTER TABLE "PurchaseOrder" ADD COLUMN     "basisOfAward" TEXT;

-- AlterTable
ALTER TABLE "PurchaseOrderApproval" ADD COLUMN     "shownDigest" TEXT;

