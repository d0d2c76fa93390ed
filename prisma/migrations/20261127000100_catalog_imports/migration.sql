-- A brand's own catalog, imported with `/parley catalog`: each file previewed, then applied on a click.
-- CreateEnum
CREATE TYPE "CatalogImportStatus" AS ENUM ('previewed', 'importing', 'applied', 'cancelled');

-- CreateEnum
CREATE TYPE "CatalogImportMode" AS ENUM ('merge', 'replace');

-- AlterTable
ALTER TABLE "Product" ADD COLUMN     "retiredAt" TIMESTAMP(3);

-- CreateTable
CREATE TABLE "CatalogImport" (
    "id" TEXT NOT NULL,
    "workspaceId" TEXT NOT NULL,
    "requestedBySlackUserId" TEXT NOT NULL,
    "slackFileId" TEXT NOT NULL,
    "fileName" TEXT NOT NULL,
    "status" "CatalogImportStatus" NOT NULL DEFAULT 'previewed',
    "mode" "CatalogImportMode",
    "rows" JSONB NOT NULL,
    "skippedSkus" JSONB NOT NULL DEFAULT '[]',
    "preview" JSONB NOT NULL,
    "result" JSONB,
    "decidedBySlackUserId" TEXT,
    "claimedAt" TIMESTAMP(3),
    "appliedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "CatalogImport_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "CatalogImport_workspaceId_status_appliedAt_idx" ON "CatalogImport"("workspaceId", "status", "appliedAt");

-- AddForeignKey
ALTER TABLE "CatalogImport" ADD CONSTRAINT "CatalogImport_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "Workspace"("id") ON DELETE CASCADE ON UPDATE CASCADE;
