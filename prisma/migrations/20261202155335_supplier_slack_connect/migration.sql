-- AlterTable
ALTER TABLE "Supplier" ADD COLUMN     "connectedAt" TIMESTAMP(3),
ADD COLUMN     "connectedBySlackUserId" TEXT,
ADD COLUMN     "connectionLostAt" TIMESTAMP(3),
ADD COLUMN     "slackChannelId" TEXT,
ADD COLUMN     "slackTeamId" TEXT;

-- CreateIndex
CREATE UNIQUE INDEX "Supplier_workspaceId_slackChannelId_key" ON "Supplier"("workspaceId", "slackChannelId");

