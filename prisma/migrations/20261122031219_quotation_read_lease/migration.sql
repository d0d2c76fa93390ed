-- AlterTable
ALTER TABLE "Quotation" ADD COLUMN     "readLeaseExpiresAt" TIMESTAMP(3),
ADD COLUMN     "readLeaseOwner" TEXT;

