-- CreateEnum
CREATE TYPE "InboxStatus" AS ENUM ('pending', 'done', 'failed');

-- CreateTable
CREATE TABLE "SlackInbox" (
    "id" TEXT NOT NULL,
    "eventId" TEXT NOT NULL,
    "teamId" TEXT,
    "body" JSONB NOT NULL,
    "status" "InboxStatus" NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "notBefore" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lockedBy" TEXT,
    "lockedUntil" TIMESTAMP(3),
    "lastError" TEXT,
    "processedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "SlackInbox_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "SlackInbox_eventId_key" ON "SlackInbox"("eventId");

-- CreateIndex
CREATE INDEX "SlackInbox_status_notBefore_idx" ON "SlackInbox"("status", "notBefore");

