// A connected supplier's Submit offer on a real database: the quoting supplier negotiates as a real organisation (its
// row connected to a Slack Connect channel: its SUP-004, the quoting role SUP-001 in the engine), the offline brand
// agent writes to it, and the round waits for its person.
// What they submit is what is recorded — in the checkpoint, the round's row and the audit — and only they can submit.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SubmittedOffer } from '../../app-types.js';
import { applyBuyerInput, loadCheckpoint } from '../../db/stores/negotiation-store.js';
import type { NegotiationState } from '../../negotiation/engine.js';
import { BUYER, createJobsFixture } from '../../../test/support/jobs.js';
import { createTestDatabase, type TestDatabase } from '../../../test/support/test-database.js';
import type { ServiceContext } from '../service-context.js';
import { SUBMITTED_WITHOUT_NOTES, submitSupplierOffer, supplierTurnFromSubmission } from './submit-supplier-offer.js';

const BRAND_TEAM = 'T0OFFERS01';
const SUPPLIER_TEAM = 'T0NINGBO01';
const SUPPLIER_PERSON = 'U0NINGBO01';

let db: TestDatabase;
let fixture: Awaited<ReturnType<typeof createJobsFixture>>;
let ctx: ServiceContext;

beforeAll(async () => {
  db = await createTestDatabase();
  fixture = await createJobsFixture(db.prisma, BRAND_TEAM);
  const context = await fixture.contexts.forWorkspace(fixture.workspaceId);
  if (!context) throw new Error('the fixture seeds the workspace');
  ctx = context;
}, 60_000);
afterAll(async () => {
  await db?.destroy();
});

const waitingForSupplier = (seed = 1) => fixture.waitingForConnectedSupplier(seed, SUPPLIER_TEAM);

const version = async (negotiationId: string) =>
  (await fixture.ws.negotiation.findUniqueOrThrow({ where: { id: negotiationId } })).checkpointVersion;

/** An offer for every other line, 3% under the quotation, with the person's terms. */
function offerFor(state: NegotiationState, over: Partial<SubmittedOffer> = {}): SubmittedOffer {
  return {
    unitPrices: state.baseline.lines.map((line, index) =>
      index % 2 === 0 ? Math.round(line.unitPrice * 97) / 100 : null,
    ),
    leadTimeDays: 38,
    paymentTerms: '30/70',
    validityDays: 14,
    notes: 'Our best for this volume.',
    ...over,
  };
}

describe('a connected supplier submits its offer', () => {
  it('is recorded exactly as submitted — checkpoint, round row and audit — and taken once', async () => {
    const { negotiationId, negotiationSupplierId, state } = await waitingForSupplier();
    const offer = offerFor(state);
    const submit = () =>
      submitSupplierOffer(ctx, {
        negotiationId,
        negotiationSupplierId,
        round: state.round,
        offer,
        by: SUPPLIER_PERSON,
        byTeamId: SUPPLIER_TEAM,
      });
    expect(await submit()).toEqual({ ok: true, changed: true, value: { negotiationId, resume: true } });

    const submitted = state.baseline.lines.flatMap((line, index) => {
      const price = offer.unitPrices[index];
      return price === null || price === undefined ? [] : [[line.sku, line.quantity, price]];
    });
    const { state: after } = await loadCheckpoint(fixture.ws, negotiationId);
    const recorded = after.suppliers['SUP-001']?.offers.at(-1);
    expect(recorded?.lines.map((line) => [line.sku, line.quantity, line.unitPrice])).toEqual(submitted);
    expect(recorded).toMatchObject({ leadTimeDays: 38, paymentTerms: '30/70', conditions: ['Valid 14 days'] });
    const total = submitted.reduce((sum, [, quantity, price]) => sum + Number(quantity) * Number(price) * 100, 0);
    expect(recorded?.total).toBe(Math.round(total) / 100);
    expect(after.suppliers['SUP-001']?.messages.at(-1)).toMatchObject({
      from: 'supplier',
      text: 'Our best for this volume.',
    });
    expect(after.status).toBe('running');

    const round = await fixture.ws.negotiationRound.findFirstOrThrow({
      where: { negotiationSupplierId, roundNumber: state.round },
    });
    expect(Number(round.offerTotal)).toBe(recorded?.total);
    const audit = await fixture.ws.auditLog.findMany({
      where: { entityId: negotiationId, action: 'negotiation.supplier_answered' },
    });
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ actorSlackUserId: SUPPLIER_PERSON });
    expect(audit[0]?.data).toMatchObject({
      supplierCode: 'SUP-001',
      text: 'Our best for this volume.',
      payload: { offer: { lines: submitted.map(([sku, , unitPrice]) => ({ sku, unitPrice })) } },
    });

    // The same form again (a double click): refused with why, nothing changed.
    const before = await version(negotiationId);
    expect(await submit()).toMatchObject({ ok: false, error: 'conflict', message: expect.stringContaining('Round') });
    expect(await version(negotiationId)).toBe(before);
  });

  it('is the supplier organisation’s alone: the brand’s people, another organisation and another row are refused', async () => {
    const { negotiationId, negotiationSupplierId, state } = await waitingForSupplier(2);
    const before = await version(negotiationId);
    const offer = offerFor(state);
    const base = { negotiationId, negotiationSupplierId, round: state.round, offer, by: SUPPLIER_PERSON };
    for (const byTeamId of [BRAND_TEAM, 'T0ELSEWHR1', null]) {
      expect(await submitSupplierOffer(ctx, { ...base, byTeamId, by: BUYER })).toMatchObject({
        ok: false,
        error: 'not_allowed',
      });
    }
    // A simulated competitor's row in the same negotiation: nobody outside answers for it.
    const competitor = await fixture.ws.negotiationSupplier.findFirstOrThrow({
      where: { negotiationId, supplierId: fixture.supplierIds['SUP-002'] },
    });
    expect(
      await submitSupplierOffer(ctx, { ...base, negotiationSupplierId: competitor.id, byTeamId: SUPPLIER_TEAM }),
    ).toMatchObject({ ok: false, error: 'not_allowed' });
    // The supplier's row named with another negotiation: a form that does not fit.
    const other = await waitingForSupplier(3);
    expect(
      await submitSupplierOffer(ctx, { ...base, negotiationId: other.negotiationId, byTeamId: SUPPLIER_TEAM }),
    ).toMatchObject({ ok: false, error: 'not_found' });
    expect(await version(negotiationId)).toBe(before);
    expect((await loadCheckpoint(fixture.ws, negotiationId)).state.suppliers['SUP-001']?.awaitingReply).toBe(true);
  });

  it('refuses what cannot be recorded as stated, a form for other lines, and a closed round — changing nothing', async () => {
    const { negotiationId, negotiationSupplierId, state } = await waitingForSupplier(4);
    const before = await version(negotiationId);
    const base = { negotiationId, negotiationSupplierId, round: state.round, by: SUPPLIER_PERSON };
    const firstPrice = state.baseline.lines[0]?.unitPrice ?? 1;
    const subCent = offerFor(state, { unitPrices: offerFor(state).unitPrices.map((p, i) => (i === 0 ? 12.345 : p)) });
    expect(await submitSupplierOffer(ctx, { ...base, offer: subCent, byTeamId: SUPPLIER_TEAM })).toMatchObject({
      ok: false,
      error: 'invalid_input',
      message: expect.stringContaining('12.345 is not in whole cents'),
    });
    const shorter = offerFor(state, { unitPrices: [firstPrice] });
    expect(await submitSupplierOffer(ctx, { ...base, offer: shorter, byTeamId: SUPPLIER_TEAM })).toMatchObject({
      ok: false,
      error: 'invalid_input',
    });
    const stale = { ...base, round: state.round + 1, offer: offerFor(state), byTeamId: SUPPLIER_TEAM };
    expect(await submitSupplierOffer(ctx, stale)).toMatchObject({ ok: false, error: 'conflict' });
    expect(await version(negotiationId)).toBe(before);

    // The buyer closes the round without it: a form opened before is refused.
    const closed = await applyBuyerInput(fixture.ws, negotiationId, {
      kind: 'no_reply',
      supplierCode: 'SUP-001',
      by: BUYER,
    });
    expect(closed.events).toEqual([
      { type: 'supplier_no_reply', round: state.round, supplierCode: 'SUP-001', by: BUYER },
    ]);
    const late = { ...base, offer: offerFor(state), byTeamId: SUPPLIER_TEAM };
    expect(await submitSupplierOffer(ctx, late)).toMatchObject({ ok: false, error: 'conflict' });
  });
});

describe('supplierTurnFromSubmission', () => {
  it('offers the lines priced, in the form’s order, and states only the terms typed', () => {
    const turn = supplierTurnFromSubmission(
      { unitPrices: [10.5, null, 3], leadTimeDays: null, paymentTerms: null, validityDays: null, notes: '  ' },
      ['A-1', 'B-2', 'C-3'],
      2,
    );
    expect(turn).toEqual({
      action: {
        type: 'COUNTER_OFFER',
        payload: {
          offer: {
            lines: [
              { sku: 'A-1', unitPrice: 10.5 },
              { sku: 'C-3', unitPrice: 3 },
            ],
          },
        },
      },
      message_text: SUBMITTED_WITHOUT_NOTES,
      used_strategies: [],
    });
    // Round 1 answers the request for quotes: a proposal, with the terms and validity typed.
    const first = { unitPrices: [7], leadTimeDays: 30, paymentTerms: '100', validityDays: 7, notes: 'Hello' };
    expect(supplierTurnFromSubmission(first, ['A-1'], 1)).toMatchObject({
      action: {
        type: 'PROPOSE_OFFER',
        payload: { offer: { leadTimeDays: 30, paymentTerms: '100', conditions: ['Valid 7 days'] } },
      },
      message_text: 'Hello',
    });
  });
});
