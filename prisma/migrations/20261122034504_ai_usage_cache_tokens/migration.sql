-- AlterTable
ALTER TABLE "AiUsage" ADD COLUMN     "cacheCreationInputTokens" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "cacheReadInputTokens" INTEGER NOT NULL DEFAULT 0;

