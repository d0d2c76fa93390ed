-- Every Slack shape of a shared file: a file shared inside a thread keeps its own message (for the 👀) apart from the
-- thread it is read in, and a quotation remembers whether its channel was shared with another organisation.
ALTER TABLE "Quotation" ADD COLUMN "slackMessageTs" TEXT,
ADD COLUMN "slackChannelExternal" BOOLEAN NOT NULL DEFAULT false;
