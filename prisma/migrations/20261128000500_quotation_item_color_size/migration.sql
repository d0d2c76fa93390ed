-- A quotation line keeps the colour and size the file gave it, so the buyer's review can show them (issue 16, item 6).
ALTER TABLE "QuotationItem" ADD COLUMN "color" TEXT,
ADD COLUMN "size" TEXT;
