// The premium consent and the no-award conclusion on a real database (PGlite, or PostgreSQL with DATABASE_URL): a
// decided negotiation whose best award in speed mode costs more than the quote offers a premium; the buyer's click is
// checked against a fresh decision, recorded in the mandate, and the negotiation is concluded again with a new PO
// draft that replaces the unapproved one. Who may click, a stale offer, a double click and a click after approval are
// each refused or absorbed. With a walk-away nothing meets, the conclusion says so and drafts no PO.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadEnv } from '../../config/env.js';
import { scopeToWorkspace, type WorkspaceDb } from '../../db/scoped.js';
import { seedWorkspace } from '../../db/seed.js';
import { loadCheckpoint } from '../../db/stores/negotiation-store.js';
import { decide, decisionInputFromState, offeredPremium } from '../../decision/decide.js';
import { readStoredPayload } from '../../outbox/outbox-call.js';
import { ACTION, premiumChoiceCodec } from '../../slack/ids.js';
import { completedNegotiations, seedNegotiationSuppliers } from '../../../test/support/negotiation-workspace.js';
import { createTestDatabase, type TestDatabase } from '../../../test/support/test-database.js';
import { concludeNegotiation } from './drive-negotiation.js';
import { approvePurchaseOrder } from '../purchase-order/approve-purchase-order.js';
import { createContextFactory, type ServiceContext } from '../service-context.js';
import { acceptPremium } from './accept-premium.js';

const BUYER = 'UBUYER0001';
const APPROVER = 'UAPPROVER1';
const STRANGER = 'USTRANGER1';

describe('accepting a premium, and concluding without an award', () => {
  let db: TestDatabase;
  let ws: WorkspaceDb;
  let ctx: ServiceContext;
  /**
   * A negotiation that has just completed with the hand-worked offers (test/support/negotiation-workspace.ts): in
   * speed mode RapidGear is the best award but costs more than the quote, so Ningbo Everbright is awarded and
   * RapidGear offered for $1,770 more, 35 days sooner.
   */
  let decidedNegotiation: ReturnType<typeof completedNegotiations>;

  beforeAll(async () => {
    db = await createTestDatabase();
    const { workspaceId } = await seedWorkspace(db.prisma, {
      slackTeamId: 'TPREM',
      brandName: 'Valden',
      catalog: [],
      approvers: [APPROVER],
    });
    ws = scopeToWorkspace(db.prisma, workspaceId);
    const env = loadEnv({ PO_DUAL_APPROVAL_ABOVE_USD: '1000000' });
    const made = await createContextFactory({ prisma: db.prisma, env, llm: null }).forWorkspace(workspaceId);
    if (!made) throw new Error('workspace not seeded');
    ctx = made;
    decidedNegotiation = completedNegotiations(ws, await seedNegotiationSuppliers(ws), BUYER);
    for (const sku of ['A', 'B']) {
      await ws.product.create({
        data: {
          workspaceId,
          brand: 'Valden',
          sku,
          name: `Item ${sku}`,
          color: 'Bone',
          size: 'M',
          category: 'Tops',
          skuPrefix: sku,
          colorCode: 'BON',
          sizeCode: 'M',
        },
      });
    }
  }, 60_000);
  afterAll(async () => {
    await db?.destroy();
  });

  const outbox = async (negotiationId: string) =>
    (await ws.slackOutbox.findMany({ where: { dedupeKey: { startsWith: `neg:${negotiationId}:` } } })).map((row) => ({
      key: row.dedupeKey,
      payload: JSON.stringify(readStoredPayload(row.payload).args),
    }));
  const quotationStatus = async (negotiationId: string) =>
    (await ws.negotiation.findUniqueOrThrow({ where: { id: negotiationId }, include: { quotation: true } })).quotation
      .status;
  const premiumOf = async (negotiationId: string) => {
    const { state } = await loadCheckpoint(ws, negotiationId);
    const offer = offeredPremium(decide(decisionInputFromState(state)));
    if (offer === null) throw new Error('no premium on offer');
    return offer;
  };

  it('offers the premium under the recommendation, and a click by the buyer leads to the premium award', async () => {
    const negotiationId = await decidedNegotiation('speed');
    await concludeNegotiation(ctx, negotiationId);
    const first = await ws.purchaseOrder.findFirstOrThrow({ where: { negotiationId }, include: { allocations: true } });
    expect(first).toMatchObject({ status: 'draft', effectiveLandedCost: expect.anything() });
    expect(Number(first.effectiveLandedCost)).toBe(22_420);
    const offer = await premiumOf(negotiationId);
    expect(offer).toMatchObject({ supplierCodes: ['SUP-003'], overQuote: 590, overAward: 1_770, daysSooner: 35 });
    expect(offer.question).toBe('Pay $1,770.00 more for 35 days sooner?');
    const decision = (await outbox(negotiationId)).find((row) => row.key.endsWith(`decision:${first.id}`));
    expect(decision?.payload).toContain(ACTION.decisionAcceptPremium);
    expect(decision?.payload).toContain(JSON.stringify(premiumChoiceCodec.encode({ n: negotiationId, p: offer.id })));

    // Only the uploader and the approvers may accept; an offer no longer on the table is refused.
    expect(await acceptPremium(ctx, { negotiationId, optionId: offer.id, by: STRANGER })).toMatchObject({
      ok: false,
      error: 'not_allowed',
    });
    expect(await acceptPremium(ctx, { negotiationId, optionId: 'pstale1', by: BUYER })).toMatchObject({
      ok: false,
      error: 'conflict',
    });
    expect((await loadCheckpoint(ws, negotiationId)).state.mandate.premiumConsents).toEqual([]);

    // The click: recorded in the mandate with the amount the button named; the conclusion is open again.
    expect(await acceptPremium(ctx, { negotiationId, optionId: offer.id, by: BUYER })).toEqual({
      ok: true,
      value: { resume: true },
      changed: true,
    });
    const { state } = await loadCheckpoint(ws, negotiationId);
    expect(state.mandate.premiumConsents).toMatchObject([
      { optionId: offer.id, amountOverQuote: 590, supplierCodes: ['SUP-003'], by: BUYER, reasons: ['lead_time'] },
    ]);
    expect(await quotationStatus(negotiationId)).toBe('negotiating');
    expect(
      await ws.auditLog.count({ where: { entityId: negotiationId, action: 'negotiation.premium_accepted' } }),
    ).toBe(1);
    // A double click records nothing more; it only resumes the conclusion not yet posted.
    expect(await acceptPremium(ctx, { negotiationId, optionId: offer.id, by: BUYER })).toEqual({
      ok: true,
      value: { resume: true },
      changed: false,
    });

    await concludeNegotiation(ctx, negotiationId);
    await concludeNegotiation(ctx, negotiationId);
    const pos = await ws.purchaseOrder.findMany({
      where: { negotiationId },
      include: { allocations: { include: { supplier: true } } },
      orderBy: { createdAt: 'asc' },
    });
    expect(pos.map((po) => po.status)).toEqual(['superseded', 'draft']);
    const replacement = pos[1];
    expect(replacement?.allocations.map((a) => a.supplier.code)).toEqual(['SUP-003']);
    // Within what the buyer accepted: the quote's $23,600 + $590.
    expect(Number(replacement?.effectiveLandedCost)).toBe(24_190);
    const rows = await outbox(negotiationId);
    const second = rows.filter((row) => row.key.endsWith(`decision:${replacement?.id ?? ''}`));
    expect(second).toHaveLength(1);
    expect(second[0]?.payload).toContain(`accepted by <@${BUYER}>`);
    expect(second[0]?.payload).not.toContain(ACTION.decisionAcceptPremium);
    expect(await quotationStatus(negotiationId)).toBe('completed');
    // After the conclusion, a late second click does nothing at all.
    expect(await acceptPremium(ctx, { negotiationId, optionId: offer.id, by: BUYER })).toEqual({
      ok: true,
      value: { resume: false },
      changed: false,
    });
  }, 60_000);

  it('refuses a click once the PO is approved: approval is final', async () => {
    const negotiationId = await decidedNegotiation('speed');
    await concludeNegotiation(ctx, negotiationId);
    const po = await ws.purchaseOrder.findFirstOrThrow({ where: { negotiationId } });
    const approved = await approvePurchaseOrder(ctx, { purchaseOrderId: po.id, by: APPROVER, expectedVersion: 0 });
    expect(approved).toMatchObject({ ok: true });
    const offer = await premiumOf(negotiationId);
    const refused = await acceptPremium(ctx, { negotiationId, optionId: offer.id, by: APPROVER });
    expect(refused).toMatchObject({ ok: false, error: 'already_final' });
    if (!refused.ok) expect(refused.message).toContain(`${po.number} is already approved`);
    expect((await loadCheckpoint(ws, negotiationId)).state.mandate.premiumConsents).toEqual([]);
  }, 60_000);

  it('concludes without an award when nothing meets the walk-away: the closest options, no PO, not failed', async () => {
    const negotiationId = await decidedNegotiation('cost', { walkAwayTotal: 15_000 });
    await concludeNegotiation(ctx, negotiationId);
    expect(await ws.purchaseOrder.count({ where: { negotiationId } })).toBe(0);
    expect(await quotationStatus(negotiationId)).toBe('completed');
    const rows = await outbox(negotiationId);
    const noAward = rows.filter((row) => row.key.includes(':no-award:'));
    expect(noAward).toHaveLength(1);
    expect(noAward[0]?.payload).toContain('No award within your mandate');
    expect(noAward[0]?.payload).toContain('above the $15,000.00 walk-away');
    expect(noAward[0]?.payload).not.toContain(ACTION.decisionAcceptPremium);
    expect(rows.some((row) => row.key.includes('decision-failed'))).toBe(false);
    // Concluding again says nothing new.
    await concludeNegotiation(ctx, negotiationId);
    expect((await outbox(negotiationId)).filter((row) => row.key.includes(':no-award:'))).toHaveLength(1);
  }, 60_000);

  it('offers the premium under the no-award message when a deadline only a dearer supplier meets rules the quote out', async () => {
    const negotiationId = await decidedNegotiation('cost', { maxLeadTimeDays: 20 });
    await concludeNegotiation(ctx, negotiationId);
    expect(await ws.purchaseOrder.count({ where: { negotiationId } })).toBe(0);
    const offer = await premiumOf(negotiationId);
    expect(offer).toMatchObject({ supplierCodes: ['SUP-003'], overQuote: 590 });
    expect(offer.question).toBe('Pay $590.00 more than the quote to meet the 20-day deadline?');
    const noAward = (await outbox(negotiationId)).find((row) => row.key.includes(':no-award:'));
    expect(noAward?.payload).toContain(ACTION.decisionAcceptPremium);

    expect(await acceptPremium(ctx, { negotiationId, optionId: offer.id, by: BUYER })).toMatchObject({ ok: true });
    await concludeNegotiation(ctx, negotiationId);
    const po = await ws.purchaseOrder.findFirstOrThrow({
      where: { negotiationId },
      include: { allocations: { include: { supplier: true } } },
    });
    expect(po.allocations.map((a) => a.supplier.code)).toEqual(['SUP-003']);
    expect(Number(po.effectiveLandedCost)).toBe(24_190);
  }, 60_000);
});
