-- AlterTable
ALTER TABLE "Quotation" ADD COLUMN     "offerForId" TEXT,
ADD COLUMN     "offerRound" INTEGER,
ADD COLUMN     "proposedOffer" JSONB;

-- AddForeignKey
ALTER TABLE "Quotation" ADD CONSTRAINT "Quotation_offerForId_fkey" FOREIGN KEY ("offerForId") REFERENCES "NegotiationSupplier"("id") ON DELETE CASCADE ON UPDATE CASCADE;

