// "Every row is scoped to its Slack workspace; an id from another workspace finds nothing" (DESIGN.md), at the service
// level: two workspaces in one database, a quotation, a line, a question and a draft PO in the first, and every
// service a click reaches called with the second workspace's context and the first one's ids. Each must answer
// not_found (or nothing) and change nothing — even though the second workspace has the same people as approvers, so a
// refusal cannot come from the permission check instead of the scoping.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { readCatalogCsv } from '../../src/catalog/products-csv.js';
import { loadEnv } from '../../src/config/env.js';
import { CrossWorkspaceWriteError } from '../../src/db/scoped.js';
import { CATALOG_CSV } from '../../src/catalog/products-csv.js';
import { seedWorkspace } from '../../src/db/seed.js';
import { createTestDatabase, type TestDatabase } from '../../test/support/test-database.js';
import { answerQuestion, chooseCurveball } from '../../src/services/negotiation/answer-question.js';
import { receiveThreadReply } from '../../src/services/negotiation/receive-thread-reply.js';
import { approvePurchaseOrder } from '../../src/services/purchase-order/approve-purchase-order.js';
import { getPurchaseOrder } from '../../src/services/purchase-order/get-purchase-order.js';
import { rejectPurchaseOrder } from '../../src/services/purchase-order/reject-purchase-order.js';
import {
  chooseSupplier,
  confirmAllSuggestions,
  reviewItem,
  showReviewPage,
} from '../../src/services/quotation/review-quotation.js';
import { createScreens } from '../../src/services/screens.js';
import { type ServiceContext, createContextFactory } from '../../src/services/service-context.js';

const TEAM_A = 'T0ALPHA001';
const TEAM_B = 'T0BRAVO001';
const BUYER = 'U0MAYA0001';
const APPROVER = 'U0SAM00001';
const CHANNEL_A = 'C0ALPHA001';
const THREAD_A = '1767000000.000100';

let db: TestDatabase;
let ctxA: ServiceContext;
let ctxB: ServiceContext;
let screens: ReturnType<typeof createScreens>;
const ids = { quotation: '', item: '', negotiation: '', question: '', po: '', product: '', supplier: '' };

beforeAll(async () => {
  db = await createTestDatabase();
  const catalog = (await readCatalogCsv(CATALOG_CSV)).slice(0, 30);
  // Both workspaces have the same people in the same roles.
  const a = await seedWorkspace(db.prisma, {
    slackTeamId: TEAM_A,
    brandName: 'Alpha Outdoor',
    catalog,
    approvers: [APPROVER],
  });
  await seedWorkspace(db.prisma, { slackTeamId: TEAM_B, brandName: 'Bravo Outdoor', catalog, approvers: [APPROVER] });
  const env = loadEnv({ PO_DUAL_APPROVAL_ABOVE_USD: '1000000' });
  const contexts = createContextFactory({ prisma: db.prisma, env, llm: null });
  const [alpha, bravo] = await Promise.all([contexts.forTeam(TEAM_A), contexts.forTeam(TEAM_B)]);
  if (!alpha || !bravo) throw new Error('workspaces not seeded');
  [ctxA, ctxB] = [alpha, bravo];
  screens = createScreens({ contexts, prisma: db.prisma });

  const workspaceId = a.workspaceId;
  const [product, other] = await db.prisma.product.findMany({
    where: { workspaceId },
    take: 2,
    orderBy: { sku: 'asc' },
  });
  const supplier = await db.prisma.supplier.findFirstOrThrow({ where: { workspaceId, code: 'SUP-002' } });
  if (!product || !other) throw new Error('catalog not seeded');
  const quotation = await db.prisma.quotation.create({
    data: {
      workspaceId,
      status: 'review',
      slackFileId: 'F0ALPHA001',
      slackChannelId: CHANNEL_A,
      slackThreadTs: THREAD_A,
      uploadedBySlackUserId: BUYER,
      fileName: 'alpha-secret-quote.xlsx',
      supplierNameRaw: 'Alpha Secret Supplier Ltd.',
    },
  });
  const item = await db.prisma.quotationItem.create({
    data: {
      workspaceId,
      quotationId: quotation.id,
      position: 0,
      sheet: 'Quote',
      rowNumber: 4,
      rawSku: product.sku,
      description: product.name,
      quantity: 100,
      unitPrice: 17.5,
      productId: product.id,
      matchConfidence: 0.7,
      matchMethod: 'fuzzy_sku',
      candidates: [
        { productId: product.id, sku: product.sku, confidence: 0.7 },
        { productId: other.id, sku: other.sku, confidence: 0.6 },
      ],
      reviewState: 'needs_review',
    },
  });
  const negotiation = await db.prisma.negotiation.create({
    data: {
      workspaceId,
      quotationId: quotation.id,
      status: 'paused',
      rngSeed: 1,
      startedBySlackUserId: BUYER,
    },
  });
  const question = await db.prisma.pendingQuestion.create({
    data: {
      workspaceId,
      negotiationId: negotiation.id,
      question: 'Is the 45-day lead time acceptable?',
      suggestedAnswers: ['Yes', 'No'],
    },
  });
  const po = await db.prisma.purchaseOrder.create({
    data: {
      workspaceId,
      negotiationId: negotiation.id,
      number: 'PO-2026-0001',
      fobCost: 1750,
      cashFlowCost: 12,
      effectiveLandedCost: 1762,
    },
  });
  Object.assign(ids, {
    quotation: quotation.id,
    item: item.id,
    negotiation: negotiation.id,
    question: question.id,
    po: po.id,
    product: other.id,
    supplier: supplier.id,
  });
}, 120_000);

afterAll(async () => {
  await db?.destroy();
});

/** Everything of workspace A that a stray call could change, and everything any call could add. */
async function snapshot() {
  const prisma = db.prisma;
  return {
    quotation: await prisma.quotation.findUnique({ where: { id: ids.quotation } }),
    items: await prisma.quotationItem.findMany({ where: { quotationId: ids.quotation }, orderBy: { id: 'asc' } }),
    negotiation: await prisma.negotiation.findUnique({ where: { id: ids.negotiation } }),
    questions: await prisma.pendingQuestion.findMany({ where: { negotiationId: ids.negotiation } }),
    po: await prisma.purchaseOrder.findUnique({ where: { id: ids.po } }),
    approvals: await prisma.purchaseOrderApproval.count(),
    suppliers: await prisma.supplier.count(),
    outbox: await prisma.slackOutbox.count(),
    audit: await prisma.auditLog.count(),
  };
}

describe('a click carrying another workspace’s ids', () => {
  it('finds nothing in any service, and changes nothing', async () => {
    const before = await snapshot();
    const page = 0;

    const review = [
      await reviewItem(ctxB, {
        itemId: ids.item,
        by: BUYER,
        decision: { kind: 'confirm', productId: ids.product },
        page,
      }),
      await reviewItem(ctxB, { itemId: ids.item, by: APPROVER, decision: { kind: 'not_in_catalog' }, page }),
      await confirmAllSuggestions(ctxB, { quotationId: ids.quotation, by: BUYER, page }),
      await chooseSupplier(ctxB, { quotationId: ids.quotation, by: BUYER, choice: { kind: 'new' }, page }),
      await chooseSupplier(ctxB, {
        quotationId: ids.quotation,
        by: BUYER,
        choice: { kind: 'existing', supplierId: ids.supplier },
        page,
      }),
      await showReviewPage(ctxB, { quotationId: ids.quotation, by: BUYER, page: 1 }),
    ];
    for (const result of review) expect(result).toMatchObject({ ok: false, error: 'not_found' });

    const questions = [
      await answerQuestion(ctxB, { questionId: ids.question, by: BUYER, choice: { kind: 'suggested', index: 0 } }),
      await answerQuestion(ctxB, {
        questionId: ids.question,
        by: APPROVER,
        choice: { kind: 'early_termination', finish: true },
      }),
      await chooseCurveball(ctxB, { negotiationId: ids.negotiation, strategyId: 'split', by: BUYER }),
    ];
    for (const result of questions) expect(result).toMatchObject({ ok: false, error: 'not_found' });
    // A reply in A's thread, seen through B: just conversation.
    expect(
      await receiveThreadReply(ctxB, {
        channelId: CHANNEL_A,
        threadTs: THREAD_A,
        messageTs: '1700000000.999999',
        clientMsgId: null,
        text: 'Yes',
        by: BUYER,
        byTeamId: null,
      }),
    ).toBeNull();

    expect(
      await approvePurchaseOrder(ctxB, { purchaseOrderId: ids.po, by: APPROVER, expectedVersion: 0 }),
    ).toMatchObject({ ok: false, error: 'not_found' });
    expect(
      await rejectPurchaseOrder(ctxB, {
        purchaseOrderId: ids.po,
        by: APPROVER,
        reason: 'Too expensive',
        expectedVersion: 0,
      }),
    ).toMatchObject({ ok: false, error: 'not_found' });
    expect(await getPurchaseOrder(ctxB, { purchaseOrderId: ids.po })).toMatchObject({ ok: false, error: 'not_found' });

    expect(await screens.startModal(TEAM_B, ids.quotation, BUYER)).toMatchObject({ ok: false, error: 'not_found' });
    expect(await screens.poModal(TEAM_B, ids.po, APPROVER)).toMatchObject({ ok: false, error: 'not_found' });
    expect(await screens.rejectModal(TEAM_B, { po: ids.po, v: 0 }, APPROVER)).toMatchObject({
      ok: false,
      error: 'not_found',
    });
    expect(await screens.quotationChannel(TEAM_B, ids.quotation)).toBeNull();
    expect(await screens.purchaseOrderChannel(TEAM_B, ids.po)).toBeNull();
    // B's App Home and B's view of A's channel show nothing of A's.
    for (const who of [BUYER, APPROVER]) {
      const home = JSON.stringify(await screens.home(TEAM_B, who));
      expect(home).not.toMatch(/alpha-secret-quote|PO-2026-0001|Alpha Secret Supplier|45-day lead time/);
    }
    const status = JSON.stringify(await screens.channelStatus(TEAM_B, CHANNEL_A));
    expect(status).not.toMatch(/alpha-secret-quote/);

    expect(await snapshot()).toEqual(before);
  });

  it('cannot be forced through the scoped database either: reads find nothing, writes touch nothing', async () => {
    const before = await snapshot();
    expect(await ctxB.db.quotation.findUnique({ where: { id: ids.quotation } })).toBeNull();
    expect(await ctxB.db.quotationItem.findMany({ where: { quotationId: ids.quotation } })).toEqual([]);
    expect(
      await ctxB.db.quotationItem.updateMany({ where: { id: ids.item }, data: { reviewState: 'confirmed' } }),
    ).toEqual({ count: 0 });
    expect(await ctxB.db.purchaseOrder.deleteMany({ where: { id: ids.po } })).toEqual({ count: 0 });
    await expect(
      ctxB.db.purchaseOrder.update({ where: { id: ids.po }, data: { status: 'approved' } }),
    ).rejects.toThrow();
    await expect(
      ctxB.db.pendingQuestion.create({
        data: { workspaceId: ctxA.workspace.id, negotiationId: ids.negotiation, question: 'planted' },
      }),
    ).rejects.toThrow(CrossWorkspaceWriteError);
    expect(await snapshot()).toEqual(before);
  });

  it('is found by its own workspace: the ids are live, so the refusals above came from the scoping', async () => {
    expect(await screens.poModal(TEAM_A, ids.po, APPROVER)).toMatchObject({ ok: true });
    expect(await screens.quotationChannel(TEAM_A, ids.quotation)).toBe(CHANNEL_A);
    expect(await ctxA.db.pendingQuestion.findUnique({ where: { id: ids.question } })).not.toBeNull();
    const confirmed = await reviewItem(ctxA, {
      itemId: ids.item,
      by: BUYER,
      decision: { kind: 'confirm', productId: ids.product },
      page: 0,
    });
    expect(confirmed).toMatchObject({ ok: true, changed: true });
    const item = await db.prisma.quotationItem.findUniqueOrThrow({ where: { id: ids.item } });
    expect([item.reviewState, item.productId]).toEqual(['confirmed', ids.product]);
  });
});
