-- Thread replies recorded once per Slack message (workspace, channel, ts), with what each did: a re-delivered event
-- finds its row and does nothing new.

-- CreateEnum
CREATE TYPE "ThreadReplyOutcome" AS ENUM ('answered', 'asked_which', 'answers_none', 'not_addressed', 'nothing_open');

-- CreateTable
CREATE TABLE "ThreadReply" (
    "id" TEXT NOT NULL,
    "workspaceId" TEXT NOT NULL,
    "negotiationId" TEXT NOT NULL,
    "channelId" TEXT NOT NULL,
    "threadTs" TEXT NOT NULL,
    "messageTs" TEXT NOT NULL,
    "clientMsgId" TEXT,
    "userId" TEXT NOT NULL,
    "text" TEXT NOT NULL,
    "questionId" TEXT,
    "outcome" "ThreadReplyOutcome" NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ThreadReply_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "ThreadReply_negotiationId_idx" ON "ThreadReply"("negotiationId");

-- CreateIndex
CREATE UNIQUE INDEX "ThreadReply_workspaceId_channelId_messageTs_key" ON "ThreadReply"("workspaceId", "channelId", "messageTs");

-- AddForeignKey
ALTER TABLE "ThreadReply" ADD CONSTRAINT "ThreadReply_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "Workspace"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ThreadReply" ADD CONSTRAINT "ThreadReply_negotiationId_fkey" FOREIGN KEY ("negotiationId") REFERENCES "Negotiation"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ThreadReply" ADD CONSTRAINT "ThreadReply_questionId_fkey" FOREIGN KEY ("questionId") REFERENCES "PendingQuestion"("id") ON DELETE SET NULL ON UPDATE CASCADE;
