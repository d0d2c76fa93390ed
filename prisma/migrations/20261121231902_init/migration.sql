-- CreateEnum
CREATE TYPE "PriceLevel" AS ENUM ('cheapest', 'mid', 'expensive');

-- CreateEnum
CREATE TYPE "QuotationStatus" AS ENUM ('received', 'parsing', 'review', 'ready', 'negotiating', 'completed', 'failed');

-- CreateEnum
CREATE TYPE "MatchMethod" AS ENUM ('exact_sku', 'ocr_sku', 'fuzzy_sku', 'name_match', 'llm_match', 'manual', 'unmatched');

-- CreateEnum
CREATE TYPE "ReviewState" AS ENUM ('auto_accepted', 'needs_review', 'confirmed', 'not_in_catalog');

-- CreateEnum
CREATE TYPE "NegotiationMode" AS ENUM ('cost', 'quality', 'speed', 'cashflow', 'balanced', 'custom');

-- CreateEnum
CREATE TYPE "NegotiationStatus" AS ENUM ('pending', 'negotiating', 'paused', 'curveball', 'deciding', 'completed', 'cancelled', 'expired', 'failed');

-- CreateEnum
CREATE TYPE "NegotiationPhase" AS ENUM ('initial', 'post_curveball');

-- CreateEnum
CREATE TYPE "NegotiationSupplierStatus" AS ENUM ('active', 'paused', 'completed', 'impasse');

-- CreateEnum
CREATE TYPE "ImpasseReason" AS ENUM ('max_rounds', 'rejected', 'no_progress', 'price_gap', 'lead_time');

-- CreateEnum
CREATE TYPE "RoundEvaluation" AS ENUM ('PASS', 'NEUTRAL', 'FAIL');

-- CreateEnum
CREATE TYPE "MessageRole" AS ENUM ('brand_agent', 'supplier_agent', 'buyer', 'system');

-- CreateEnum
CREATE TYPE "QuestionKind" AS ENUM ('ask_info', 'early_termination', 'curveball_strategy');

-- CreateEnum
CREATE TYPE "QuestionStatus" AS ENUM ('open', 'answered', 'expired', 'cancelled');

-- CreateEnum
CREATE TYPE "DecisionWriter" AS ENUM ('llm', 'deterministic');

-- CreateEnum
CREATE TYPE "PurchaseOrderStatus" AS ENUM ('draft', 'approved', 'rejected', 'superseded');

-- CreateEnum
CREATE TYPE "OutboxStatus" AS ENUM ('pending', 'sending', 'sent', 'failed');

-- CreateTable
CREATE TABLE "Workspace" (
    "id" TEXT NOT NULL,
    "slackTeamId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "brandName" TEXT NOT NULL,
    "settings" JSONB NOT NULL DEFAULT '{}',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Workspace_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "SlackInstallation" (
    "id" TEXT NOT NULL,
    "workspaceId" TEXT NOT NULL,
    "enterpriseId" TEXT,
    "isEnterpriseInstall" BOOLEAN NOT NULL DEFAULT false,
    "botUserId" TEXT NOT NULL,
    "botId" TEXT,
    "botToken" TEXT NOT NULL,
    "installerUserId" TEXT,
    "scopes" TEXT[],
    "raw" JSONB NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "SlackInstallation_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "User" (
    "id" TEXT NOT NULL,
    "workspaceId" TEXT NOT NULL,
    "slackUserId" TEXT NOT NULL,
    "name" TEXT,
    "isApprover" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "User_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Supplier" (
    "id" TEXT NOT NULL,
    "workspaceId" TEXT NOT NULL,
    "code" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "contactName" TEXT,
    "country" TEXT,
    "currency" TEXT NOT NULL DEFAULT 'USD',
    "qualityRating" DOUBLE PRECISION NOT NULL,
    "priceLevel" "PriceLevel" NOT NULL,
    "leadTimeDays" INTEGER NOT NULL,
    "paymentTerms" TEXT NOT NULL,
    "onTimeDeliveryRate" DOUBLE PRECISION NOT NULL,
    "defectRate" DOUBLE PRECISION NOT NULL,
    "responseTimeDays" DOUBLE PRECISION NOT NULL,
    "totalOrdersCount" INTEGER NOT NULL DEFAULT 0,
    "isSimulated" BOOLEAN NOT NULL DEFAULT false,
    "personality" JSONB,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Supplier_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Product" (
    "id" TEXT NOT NULL,
    "workspaceId" TEXT NOT NULL,
    "brand" TEXT NOT NULL,
    "sku" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "color" TEXT NOT NULL,
    "size" TEXT NOT NULL,
    "category" TEXT NOT NULL,
    "skuPrefix" TEXT NOT NULL,
    "colorCode" TEXT NOT NULL,
    "sizeCode" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Product_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Quotation" (
    "id" TEXT NOT NULL,
    "workspaceId" TEXT NOT NULL,
    "supplierId" TEXT,
    "status" "QuotationStatus" NOT NULL DEFAULT 'received',
    "slackFileId" TEXT NOT NULL,
    "slackChannelId" TEXT NOT NULL,
    "slackThreadTs" TEXT,
    "statusMessageTs" TEXT,
    "uploadedBySlackUserId" TEXT NOT NULL,
    "fileName" TEXT NOT NULL,
    "fileSizeBytes" INTEGER,
    "supplierNameRaw" TEXT,
    "supplierMatch" JSONB,
    "paymentTerms" TEXT,
    "leadTimeDays" INTEGER,
    "currency" TEXT,
    "incoterm" TEXT,
    "moq" INTEGER,
    "validityDays" INTEGER,
    "notes" TEXT,
    "sheetCount" INTEGER,
    "charges" JSONB NOT NULL DEFAULT '[]',
    "warnings" JSONB NOT NULL DEFAULT '[]',
    "errorCode" TEXT,
    "errorMessage" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Quotation_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "QuotationItem" (
    "id" TEXT NOT NULL,
    "workspaceId" TEXT NOT NULL,
    "quotationId" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "sheet" TEXT NOT NULL,
    "rowNumber" INTEGER NOT NULL,
    "rawSku" TEXT,
    "rawDescription" TEXT,
    "rawQuantity" TEXT,
    "rawUnitPrice" TEXT,
    "rawNotes" TEXT,
    "description" TEXT,
    "quantity" INTEGER,
    "unitPrice" DECIMAL(14,4),
    "totalPrice" DECIMAL(16,2),
    "tiers" JSONB NOT NULL DEFAULT '[]',
    "productId" TEXT,
    "matchConfidence" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "matchMethod" "MatchMethod" NOT NULL DEFAULT 'unmatched',
    "candidates" JSONB NOT NULL DEFAULT '[]',
    "flags" JSONB NOT NULL DEFAULT '[]',
    "reviewState" "ReviewState" NOT NULL DEFAULT 'needs_review',
    "reviewedBySlackUserId" TEXT,
    "reviewedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "QuotationItem_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Negotiation" (
    "id" TEXT NOT NULL,
    "workspaceId" TEXT NOT NULL,
    "quotationId" TEXT NOT NULL,
    "mode" "NegotiationMode" NOT NULL DEFAULT 'balanced',
    "customWeights" JSONB,
    "status" "NegotiationStatus" NOT NULL DEFAULT 'pending',
    "phase" "NegotiationPhase" NOT NULL DEFAULT 'initial',
    "currentRound" INTEGER NOT NULL DEFAULT 0,
    "maxRounds" INTEGER NOT NULL DEFAULT 4,
    "questionBudget" INTEGER NOT NULL DEFAULT 3,
    "questionsAsked" INTEGER NOT NULL DEFAULT 0,
    "targetTotal" DECIMAL(16,2),
    "walkAwayTotal" DECIMAL(16,2),
    "notes" TEXT,
    "clarifications" JSONB NOT NULL DEFAULT '[]',
    "rngSeed" INTEGER NOT NULL,
    "checkpoint" JSONB,
    "checkpointVersion" INTEGER NOT NULL DEFAULT 0,
    "leaseOwner" TEXT,
    "leaseExpiresAt" TIMESTAMP(3),
    "curveball" JSONB,
    "totalTokens" INTEGER NOT NULL DEFAULT 0,
    "totalCostUsd" DECIMAL(12,6) NOT NULL DEFAULT 0,
    "earlyTermination" BOOLEAN NOT NULL DEFAULT false,
    "earlyTerminationReason" TEXT,
    "roundsSkipped" INTEGER,
    "estimatedCostSavedUsd" DECIMAL(12,6),
    "startedBySlackUserId" TEXT NOT NULL,
    "startedAt" TIMESTAMP(3),
    "pausedAt" TIMESTAMP(3),
    "completedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Negotiation_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "NegotiationSupplier" (
    "id" TEXT NOT NULL,
    "workspaceId" TEXT NOT NULL,
    "negotiationId" TEXT NOT NULL,
    "supplierId" TEXT NOT NULL,
    "status" "NegotiationSupplierStatus" NOT NULL DEFAULT 'active',
    "impasseReason" "ImpasseReason",
    "impasseDetails" JSONB,
    "capacityLimit" DOUBLE PRECISION,
    "finalOffer" JSONB,
    "finalOfferTotal" DECIMAL(16,2),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "NegotiationSupplier_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "NegotiationRound" (
    "id" TEXT NOT NULL,
    "workspaceId" TEXT NOT NULL,
    "negotiationId" TEXT NOT NULL,
    "negotiationSupplierId" TEXT NOT NULL,
    "roundNumber" INTEGER NOT NULL,
    "phase" "NegotiationPhase" NOT NULL,
    "offerData" JSONB,
    "offerTotal" DECIMAL(16,2),
    "evaluation" "RoundEvaluation",
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "NegotiationRound_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Message" (
    "id" TEXT NOT NULL,
    "workspaceId" TEXT NOT NULL,
    "negotiationId" TEXT NOT NULL,
    "negotiationSupplierId" TEXT,
    "roundId" TEXT,
    "sequence" INTEGER NOT NULL,
    "role" "MessageRole" NOT NULL,
    "speakerName" TEXT NOT NULL,
    "text" TEXT NOT NULL,
    "action" JSONB,
    "actionType" TEXT,
    "usedStrategies" TEXT[],
    "pillarBriefs" JSONB,
    "slackTs" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Message_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "PendingQuestion" (
    "id" TEXT NOT NULL,
    "workspaceId" TEXT NOT NULL,
    "negotiationId" TEXT NOT NULL,
    "negotiationSupplierId" TEXT,
    "kind" "QuestionKind" NOT NULL DEFAULT 'ask_info',
    "question" TEXT NOT NULL,
    "suggestedAnswers" JSONB NOT NULL DEFAULT '[]',
    "status" "QuestionStatus" NOT NULL DEFAULT 'open',
    "answer" TEXT,
    "answeredBySlackUserId" TEXT,
    "answeredAt" TIMESTAMP(3),
    "slackTs" TEXT,
    "reminderCount" INTEGER NOT NULL DEFAULT 0,
    "lastRemindedAt" TIMESTAMP(3),
    "askedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "PendingQuestion_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Decision" (
    "id" TEXT NOT NULL,
    "workspaceId" TEXT NOT NULL,
    "negotiationId" TEXT NOT NULL,
    "mode" "NegotiationMode" NOT NULL,
    "recommendation" JSONB NOT NULL,
    "scores" JSONB NOT NULL,
    "allocation" JSONB NOT NULL,
    "summary" TEXT NOT NULL,
    "keyPoints" JSONB NOT NULL,
    "tradeOffs" TEXT NOT NULL,
    "cheapestNotChosenReason" TEXT,
    "savings" JSONB NOT NULL,
    "writer" "DecisionWriter" NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Decision_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "PurchaseOrder" (
    "id" TEXT NOT NULL,
    "workspaceId" TEXT NOT NULL,
    "negotiationId" TEXT NOT NULL,
    "decisionId" TEXT,
    "number" TEXT NOT NULL,
    "status" "PurchaseOrderStatus" NOT NULL DEFAULT 'draft',
    "version" INTEGER NOT NULL DEFAULT 0,
    "currency" TEXT NOT NULL DEFAULT 'USD',
    "fobCost" DECIMAL(16,2) NOT NULL,
    "cashFlowCost" DECIMAL(16,2) NOT NULL,
    "splitOverhead" DECIMAL(16,2) NOT NULL DEFAULT 0,
    "effectiveLandedCost" DECIMAL(16,2) NOT NULL,
    "rejectedReason" TEXT,
    "rejectedBySlackUserId" TEXT,
    "rejectedAt" TIMESTAMP(3),
    "approvedAt" TIMESTAMP(3),
    "slackMessageTs" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "PurchaseOrder_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "PurchaseOrderApproval" (
    "id" TEXT NOT NULL,
    "workspaceId" TEXT NOT NULL,
    "purchaseOrderId" TEXT NOT NULL,
    "approverSlackUserId" TEXT NOT NULL,
    "approvedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "PurchaseOrderApproval_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "PurchaseOrderAllocation" (
    "id" TEXT NOT NULL,
    "workspaceId" TEXT NOT NULL,
    "purchaseOrderId" TEXT NOT NULL,
    "supplierId" TEXT NOT NULL,
    "share" DOUBLE PRECISION NOT NULL,
    "paymentTerms" TEXT NOT NULL,
    "leadTimeDays" INTEGER NOT NULL,
    "incoterm" TEXT,
    "fobCost" DECIMAL(16,2) NOT NULL,
    "cashFlowCost" DECIMAL(16,2) NOT NULL,
    "effectiveLandedCost" DECIMAL(16,2) NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "PurchaseOrderAllocation_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "PurchaseOrderItem" (
    "id" TEXT NOT NULL,
    "workspaceId" TEXT NOT NULL,
    "allocationId" TEXT NOT NULL,
    "productId" TEXT,
    "sku" TEXT NOT NULL,
    "description" TEXT NOT NULL,
    "quantity" INTEGER NOT NULL,
    "unitPrice" DECIMAL(14,4) NOT NULL,
    "lineTotal" DECIMAL(16,2) NOT NULL,
    "tiers" JSONB NOT NULL DEFAULT '[]',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "PurchaseOrderItem_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "AiUsage" (
    "id" TEXT NOT NULL,
    "workspaceId" TEXT NOT NULL,
    "negotiationId" TEXT,
    "quotationId" TEXT,
    "purpose" TEXT NOT NULL,
    "model" TEXT NOT NULL,
    "inputTokens" INTEGER NOT NULL,
    "outputTokens" INTEGER NOT NULL,
    "costUsd" DECIMAL(12,6) NOT NULL,
    "latencyMs" INTEGER NOT NULL,
    "outcome" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "AiUsage_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "SlackOutbox" (
    "id" TEXT NOT NULL,
    "workspaceId" TEXT NOT NULL,
    "dedupeKey" TEXT NOT NULL,
    "method" TEXT NOT NULL,
    "channelId" TEXT,
    "threadTs" TEXT,
    "payload" JSONB NOT NULL,
    "status" "OutboxStatus" NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "notBefore" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lockedBy" TEXT,
    "lockedUntil" TIMESTAMP(3),
    "resultTs" TEXT,
    "lastError" TEXT,
    "sentAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "SlackOutbox_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "AuditLog" (
    "id" TEXT NOT NULL,
    "workspaceId" TEXT NOT NULL,
    "actorSlackUserId" TEXT,
    "actorKind" TEXT NOT NULL,
    "action" TEXT NOT NULL,
    "entityType" TEXT NOT NULL,
    "entityId" TEXT NOT NULL,
    "data" JSONB NOT NULL DEFAULT '{}',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "AuditLog_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "Workspace_slackTeamId_key" ON "Workspace"("slackTeamId");

-- CreateIndex
CREATE UNIQUE INDEX "SlackInstallation_workspaceId_key" ON "SlackInstallation"("workspaceId");

-- CreateIndex
CREATE UNIQUE INDEX "User_workspaceId_slackUserId_key" ON "User"("workspaceId", "slackUserId");

-- CreateIndex
CREATE INDEX "Supplier_workspaceId_name_idx" ON "Supplier"("workspaceId", "name");

-- CreateIndex
CREATE UNIQUE INDEX "Supplier_workspaceId_code_key" ON "Supplier"("workspaceId", "code");

-- CreateIndex
CREATE INDEX "Product_workspaceId_skuPrefix_idx" ON "Product"("workspaceId", "skuPrefix");

-- CreateIndex
CREATE UNIQUE INDEX "Product_workspaceId_sku_key" ON "Product"("workspaceId", "sku");

-- CreateIndex
CREATE INDEX "Quotation_workspaceId_slackChannelId_slackThreadTs_idx" ON "Quotation"("workspaceId", "slackChannelId", "slackThreadTs");

-- CreateIndex
CREATE UNIQUE INDEX "Quotation_workspaceId_slackFileId_key" ON "Quotation"("workspaceId", "slackFileId");

-- CreateIndex
CREATE INDEX "QuotationItem_workspaceId_quotationId_reviewState_idx" ON "QuotationItem"("workspaceId", "quotationId", "reviewState");

-- CreateIndex
CREATE UNIQUE INDEX "QuotationItem_quotationId_position_key" ON "QuotationItem"("quotationId", "position");

-- CreateIndex
CREATE UNIQUE INDEX "Negotiation_quotationId_key" ON "Negotiation"("quotationId");

-- CreateIndex
CREATE INDEX "Negotiation_workspaceId_status_idx" ON "Negotiation"("workspaceId", "status");

-- CreateIndex
CREATE INDEX "Negotiation_status_leaseExpiresAt_idx" ON "Negotiation"("status", "leaseExpiresAt");

-- CreateIndex
CREATE UNIQUE INDEX "NegotiationSupplier_negotiationId_supplierId_key" ON "NegotiationSupplier"("negotiationId", "supplierId");

-- CreateIndex
CREATE UNIQUE INDEX "NegotiationRound_negotiationSupplierId_roundNumber_key" ON "NegotiationRound"("negotiationSupplierId", "roundNumber");

-- CreateIndex
CREATE UNIQUE INDEX "Message_negotiationId_sequence_key" ON "Message"("negotiationId", "sequence");

-- CreateIndex
CREATE INDEX "PendingQuestion_negotiationId_status_askedAt_idx" ON "PendingQuestion"("negotiationId", "status", "askedAt");

-- CreateIndex
CREATE INDEX "PendingQuestion_workspaceId_status_idx" ON "PendingQuestion"("workspaceId", "status");

-- CreateIndex
CREATE UNIQUE INDEX "Decision_negotiationId_key" ON "Decision"("negotiationId");

-- CreateIndex
CREATE INDEX "PurchaseOrder_workspaceId_status_idx" ON "PurchaseOrder"("workspaceId", "status");

-- CreateIndex
CREATE UNIQUE INDEX "PurchaseOrder_workspaceId_number_key" ON "PurchaseOrder"("workspaceId", "number");

-- CreateIndex
CREATE UNIQUE INDEX "PurchaseOrderApproval_purchaseOrderId_approverSlackUserId_key" ON "PurchaseOrderApproval"("purchaseOrderId", "approverSlackUserId");

-- CreateIndex
CREATE UNIQUE INDEX "PurchaseOrderAllocation_purchaseOrderId_supplierId_key" ON "PurchaseOrderAllocation"("purchaseOrderId", "supplierId");

-- CreateIndex
CREATE INDEX "AiUsage_workspaceId_negotiationId_idx" ON "AiUsage"("workspaceId", "negotiationId");

-- CreateIndex
CREATE INDEX "SlackOutbox_status_notBefore_idx" ON "SlackOutbox"("status", "notBefore");

-- CreateIndex
CREATE INDEX "SlackOutbox_channelId_status_idx" ON "SlackOutbox"("channelId", "status");

-- CreateIndex
CREATE UNIQUE INDEX "SlackOutbox_workspaceId_dedupeKey_key" ON "SlackOutbox"("workspaceId", "dedupeKey");

-- CreateIndex
CREATE INDEX "AuditLog_workspaceId_entityType_entityId_idx" ON "AuditLog"("workspaceId", "entityType", "entityId");

-- AddForeignKey
ALTER TABLE "SlackInstallation" ADD CONSTRAINT "SlackInstallation_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "Workspace"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "User" ADD CONSTRAINT "User_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "Workspace"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Supplier" ADD CONSTRAINT "Supplier_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "Workspace"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Product" ADD CONSTRAINT "Product_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "Workspace"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Quotation" ADD CONSTRAINT "Quotation_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "Workspace"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Quotation" ADD CONSTRAINT "Quotation_supplierId_fkey" FOREIGN KEY ("supplierId") REFERENCES "Supplier"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "QuotationItem" ADD CONSTRAINT "QuotationItem_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "Workspace"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "QuotationItem" ADD CONSTRAINT "QuotationItem_quotationId_fkey" FOREIGN KEY ("quotationId") REFERENCES "Quotation"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "QuotationItem" ADD CONSTRAINT "QuotationItem_productId_fkey" FOREIGN KEY ("productId") REFERENCES "Product"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Negotiation" ADD CONSTRAINT "Negotiation_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "Workspace"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Negotiation" ADD CONSTRAINT "Negotiation_quotationId_fkey" FOREIGN KEY ("quotationId") REFERENCES "Quotation"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "NegotiationSupplier" ADD CONSTRAINT "NegotiationSupplier_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "Workspace"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "NegotiationSupplier" ADD CONSTRAINT "NegotiationSupplier_negotiationId_fkey" FOREIGN KEY ("negotiationId") REFERENCES "Negotiation"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "NegotiationSupplier" ADD CONSTRAINT "NegotiationSupplier_supplierId_fkey" FOREIGN KEY ("supplierId") REFERENCES "Supplier"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "NegotiationRound" ADD CONSTRAINT "NegotiationRound_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "Workspace"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "NegotiationRound" ADD CONSTRAINT "NegotiationRound_negotiationId_fkey" FOREIGN KEY ("negotiationId") REFERENCES "Negotiation"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "NegotiationRound" ADD CONSTRAINT "NegotiationRound_negotiationSupplierId_fkey" FOREIGN KEY ("negotiationSupplierId") REFERENCES "NegotiationSupplier"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Message" ADD CONSTRAINT "Message_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "Workspace"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Message" ADD CONSTRAINT "Message_negotiationId_fkey" FOREIGN KEY ("negotiationId") REFERENCES "Negotiation"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Message" ADD CONSTRAINT "Message_negotiationSupplierId_fkey" FOREIGN KEY ("negotiationSupplierId") REFERENCES "NegotiationSupplier"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Message" ADD CONSTRAINT "Message_roundId_fkey" FOREIGN KEY ("roundId") REFERENCES "NegotiationRound"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PendingQuestion" ADD CONSTRAINT "PendingQuestion_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "Workspace"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PendingQuestion" ADD CONSTRAINT "PendingQuestion_negotiationId_fkey" FOREIGN KEY ("negotiationId") REFERENCES "Negotiation"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PendingQuestion" ADD CONSTRAINT "PendingQuestion_negotiationSupplierId_fkey" FOREIGN KEY ("negotiationSupplierId") REFERENCES "NegotiationSupplier"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Decision" ADD CONSTRAINT "Decision_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "Workspace"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Decision" ADD CONSTRAINT "Decision_negotiationId_fkey" FOREIGN KEY ("negotiationId") REFERENCES "Negotiation"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PurchaseOrder" ADD CONSTRAINT "PurchaseOrder_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "Workspace"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PurchaseOrder" ADD CONSTRAINT "PurchaseOrder_negotiationId_fkey" FOREIGN KEY ("negotiationId") REFERENCES "Negotiation"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PurchaseOrder" ADD CONSTRAINT "PurchaseOrder_decisionId_fkey" FOREIGN KEY ("decisionId") REFERENCES "Decision"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PurchaseOrderApproval" ADD CONSTRAINT "PurchaseOrderApproval_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "Workspace"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PurchaseOrderApproval" ADD CONSTRAINT "PurchaseOrderApproval_purchaseOrderId_fkey" FOREIGN KEY ("purchaseOrderId") REFERENCES "PurchaseOrder"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PurchaseOrderAllocation" ADD CONSTRAINT "PurchaseOrderAllocation_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "Workspace"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PurchaseOrderAllocation" ADD CONSTRAINT "PurchaseOrderAllocation_purchaseOrderId_fkey" FOREIGN KEY ("purchaseOrderId") REFERENCES "PurchaseOrder"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PurchaseOrderAllocation" ADD CONSTRAINT "PurchaseOrderAllocation_supplierId_fkey" FOREIGN KEY ("supplierId") REFERENCES "Supplier"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PurchaseOrderItem" ADD CONSTRAINT "PurchaseOrderItem_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "Workspace"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PurchaseOrderItem" ADD CONSTRAINT "PurchaseOrderItem_allocationId_fkey" FOREIGN KEY ("allocationId") REFERENCES "PurchaseOrderAllocation"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PurchaseOrderItem" ADD CONSTRAINT "PurchaseOrderItem_productId_fkey" FOREIGN KEY ("productId") REFERENCES "Product"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "AiUsage" ADD CONSTRAINT "AiUsage_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "Workspace"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "AiUsage" ADD CONSTRAINT "AiUsage_negotiationId_fkey" FOREIGN KEY ("negotiationId") REFERENCES "Negotiation"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "SlackOutbox" ADD CONSTRAINT "SlackOutbox_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "Workspace"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "AuditLog" ADD CONSTRAINT "AuditLog_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "Workspace"("id") ON DELETE CASCADE ON UPDATE CASCADE;
