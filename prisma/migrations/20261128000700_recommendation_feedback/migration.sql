-- CreateTable
CREATE TABLE "RecommendationFeedback" (
    "id" TEXT NOT NULL,
    "workspaceId" TEXT NOT NULL,
    "negotiationId" TEXT NOT NULL,
    "slackUserId" TEXT NOT NULL,
    "rating" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "RecommendationFeedback_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "RecommendationFeedback_workspaceId_negotiationId_idx" ON "RecommendationFeedback"("workspaceId", "negotiationId");

-- CreateIndex
CREATE UNIQUE INDEX "RecommendationFeedback_workspaceId_negotiationId_slackUserI_key" ON "RecommendationFeedback"("workspaceId", "negotiationId", "slackUserId");

