// Submit this offer, under the offer Parley read from a connected supplier's revised quotation, on a real database:
// the file's row holds the offer as read; only a person of the supplier's own organisation records it, once, and it is
// recorded exactly as read — through the same checks as the Submit offer form.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SubmittedOffer } from '../../app-types.js';
import { toJsonColumn } from '../../db/json.js';
import { loadCheckpoint } from '../../db/stores/negotiation-store.js';
import { createJobsFixture } from '../../../test/support/jobs.js';
import { createTestDatabase, type TestDatabase } from '../../../test/support/test-database.js';
import type { ServiceContext } from '../service-context.js';
import { submitOfferFile } from './supplier-offer-file.js';

const BRAND_TEAM = 'T0OFFERF01';
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

describe('a connected supplier submits the offer Parley read from its file', () => {
  it('is recorded as read, only by the supplier’s own people, and once', async () => {
    const { negotiationId, negotiationSupplierId, state } = await fixture.waitingForConnectedSupplier(1, SUPPLIER_TEAM);
    const offer: SubmittedOffer = {
      unitPrices: state.baseline.lines.map((line, index) =>
        index === 0 ? null : Math.round(line.unitPrice * 96) / 100,
      ),
      leadTimeDays: 35,
      paymentTerms: '30/70',
      validityDays: null,
      notes: null,
    };
    const file = await ctx.db.quotation.create({
      data: {
        workspaceId: ctx.workspace.id,
        slackFileId: 'F0REVISED1',
        slackChannelId: 'C0SHARED01',
        slackThreadTs: '1767225600.000900',
        slackChannelExternal: true,
        uploadedBySlackUserId: SUPPLIER_PERSON,
        fileName: 'revised.xlsx',
        status: 'completed',
        offerForId: negotiationSupplierId,
        offerRound: state.round,
        proposedOffer: toJsonColumn(offer),
      },
    });
    const submit = (by: string, byTeamId: string | null) =>
      submitOfferFile(ctx, { quotationId: file.id, by, byTeamId });

    // The brand's own people, and another organisation, cannot make it the supplier's word.
    for (const [by, team] of [
      ['U0BUYER001', BRAND_TEAM],
      ['U0OTHER001', 'T0OTHER001'],
      ['U0NOBODY01', null],
    ] as const) {
      expect(await submit(by, team)).toMatchObject({ ok: false, error: 'not_allowed' });
    }
    expect(await submit(SUPPLIER_PERSON, SUPPLIER_TEAM)).toEqual({
      ok: true,
      changed: true,
      value: { negotiationId, resume: true },
    });
    const { state: after } = await loadCheckpoint(fixture.ws, negotiationId);
    const recorded = after.suppliers['SUP-001']?.offers.at(-1);
    // Exactly as read: the line the file left out is not offered, the others at the file's price.
    expect(recorded?.lines.map((line) => [line.sku, line.unitPrice])).toEqual(
      state.baseline.lines.slice(1).map((line) => [line.sku, Math.round(line.unitPrice * 96) / 100]),
    );
    expect(recorded).toMatchObject({ leadTimeDays: 35, paymentTerms: '30/70' });
    expect(after.suppliers['SUP-001']?.messages.at(-1)?.text).toBe(
      'Offer submitted as a revised quotation (revised.xlsx).',
    );
    // The card in the supplier's thread says it is recorded.
    const card = await ctx.db.slackOutbox.findFirst({ where: { dedupeKey: `q:${file.id}:status:offer:submitted` } });
    expect(JSON.stringify(card?.payload)).toContain(`Submitted by <@${SUPPLIER_PERSON}>`);

    // Again (a double click): the round took its answer already.
    expect(await submit(SUPPLIER_PERSON, SUPPLIER_TEAM)).toMatchObject({ ok: false, error: 'conflict' });
    const { state: again } = await loadCheckpoint(fixture.ws, negotiationId);
    expect(again.suppliers['SUP-001']?.offers.length).toBe(after.suppliers['SUP-001']?.offers.length);
  });

  it('finds no offer on a file that is no supplier’s offer file', async () => {
    const file = await ctx.db.quotation.create({
      data: {
        workspaceId: ctx.workspace.id,
        slackFileId: 'F0BUYERS01',
        slackChannelId: 'C0SOURCING',
        uploadedBySlackUserId: 'U0BUYER001',
        fileName: 'quote.xlsx',
        status: 'ready',
      },
    });
    expect(
      await submitOfferFile(ctx, { quotationId: file.id, by: SUPPLIER_PERSON, byTeamId: SUPPLIER_TEAM }),
    ).toMatchObject({ ok: false, error: 'not_found' });
  });
});
