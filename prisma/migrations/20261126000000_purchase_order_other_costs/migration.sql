-- Landed cost now counts the quote's charges and the Incoterm's freight and duty: a PO keeps them apart.
ALTER TABLE "PurchaseOrder" ADD COLUMN "otherCosts" DECIMAL(16,2) NOT NULL DEFAULT 0;
ALTER TABLE "PurchaseOrderAllocation" ADD COLUMN "otherCosts" DECIMAL(16,2) NOT NULL DEFAULT 0;
