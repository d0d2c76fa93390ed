-- A step writes what it changed (issue 18): long arrays of a negotiation stored once by content (line sets), and the
-- checkpoint as a base plus one delta per step since.
-- AlterTable
ALTER TABLE "Negotiation" ADD COLUMN     "checkpointBaseVersion" INTEGER NOT NULL DEFAULT 0;

-- CreateTable
CREATE TABLE "NegotiationLineSet" (
    "negotiationId" TEXT NOT NULL,
    "hash" TEXT NOT NULL,
    "workspaceId" TEXT NOT NULL,
    "body" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "NegotiationLineSet_pkey" PRIMARY KEY ("negotiationId","hash")
);

-- CreateTable
CREATE TABLE "NegotiationCheckpointDelta" (
    "negotiationId" TEXT NOT NULL,
    "version" INTEGER NOT NULL,
    "workspaceId" TEXT NOT NULL,
    "ops" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "NegotiationCheckpointDelta_pkey" PRIMARY KEY ("negotiationId","version")
);

-- AddForeignKey
ALTER TABLE "NegotiationLineSet" ADD CONSTRAINT "NegotiationLineSet_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "Workspace"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "NegotiationLineSet" ADD CONSTRAINT "NegotiationLineSet_negotiationId_fkey" FOREIGN KEY ("negotiationId") REFERENCES "Negotiation"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "NegotiationCheckpointDelta" ADD CONSTRAINT "NegotiationCheckpointDelta_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "Workspace"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "NegotiationCheckpointDelta" ADD CONSTRAINT "NegotiationCheckpointDelta_negotiationId_fkey" FOREIGN KEY ("negotiationId") REFERENCES "Negotiation"("id") ON DELETE CASCADE ON UPDATE CASCADE;

