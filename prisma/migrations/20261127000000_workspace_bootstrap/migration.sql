-- Settings changes are checked against the version the person saw (no lost update) and audited.
-- AlterTable
ALTER TABLE "Workspace" ADD COLUMN "settingsVersion" INTEGER NOT NULL DEFAULT 0;
