-- A comparison sheet (one price column per supplier) waits for the buyer to pick a supplier's column: the columns
-- offered, and the one picked, which the re-read uses as the price (issue 16, class 6).
ALTER TABLE "Quotation" ADD COLUMN "comparisonColumns" JSONB,
ADD COLUMN "chosenColumn" INTEGER;
