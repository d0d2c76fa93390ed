// The start of a negotiation in a channel shared with another organisation (Slack Connect): the thread would show the
// other suppliers, the scores and the mandate to outsiders, so the service itself refuses without the buyer's tick —
// whatever the modal did. Against a real (PGlite) database.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadEnv } from '../../config/env.js';
import { seedWorkspace } from '../../db/seed.js';
import { startRequest } from '../../../test/support/negotiation-fixtures.js';
import { createTestDatabase, type TestDatabase } from '../../../test/support/test-database.js';
import { createContextFactory, type ServiceContext } from '../service-context.js';
import { beginNegotiation } from './begin-negotiation.js';

const TEAM = 'T0BEGINNEG';
const BUYER = 'U0BUYER001';

let db: TestDatabase;
let ctx: ServiceContext;

beforeAll(async () => {
  db = await createTestDatabase();
  await seedWorkspace(db.prisma, { slackTeamId: TEAM, brandName: 'Valden Outdoor', catalog: [] });
  const contexts = createContextFactory({ prisma: db.prisma, env: loadEnv({}), llm: null });
  const found = await contexts.forTeam(TEAM);
  if (!found) throw new Error('no workspace');
  ctx = found;
});
afterAll(() => db?.destroy());

const request = startRequest;

/** A reviewed quotation (no usable lines: a start that passes the checks stops at the baseline, changing nothing). */
async function readyQuotation(fileId: string, externalChannel: boolean) {
  const supplier = await ctx.db.supplier.findFirstOrThrow({ select: { id: true } });
  return ctx.db.quotation.create({
    data: {
      workspaceId: ctx.workspace.id,
      slackFileId: fileId,
      slackChannelId: 'C0SHARED01',
      slackThreadTs: '1767225600.000100',
      slackChannelExternal: externalChannel,
      uploadedBySlackUserId: BUYER,
      fileName: 'quote.xlsx',
      status: 'ready',
      supplierId: supplier.id,
    },
  });
}

describe('beginNegotiation in a channel shared with another organisation', () => {
  it('refuses without the buyer’s confirmation, and starts nothing', async () => {
    const quotation = await readyQuotation('F0EXTERN01', true);
    for (const confirmed of [undefined, false]) {
      const result = await beginNegotiation(ctx, {
        quotationId: quotation.id,
        by: BUYER,
        request: { ...request, externalChannelConfirmed: confirmed },
      });
      expect(result).toMatchObject({ ok: false, error: 'invalid_input', message: expect.stringMatching(/outside/) });
    }
    expect(await ctx.db.negotiation.count({ where: { quotationId: quotation.id } })).toBe(0);
  });

  it('goes on with the confirmation, and asks nothing in an internal channel', async () => {
    const shared = await readyQuotation('F0EXTERN02', true);
    const internal = await readyQuotation('F0INTERN01', false);
    const confirmed = await beginNegotiation(ctx, {
      quotationId: shared.id,
      by: BUYER,
      request: { ...request, externalChannelConfirmed: true },
    });
    const unasked = await beginNegotiation(ctx, { quotationId: internal.id, by: BUYER, request });
    // Past the check: both stop at the next one (no catalog line to negotiate), not at the confirmation.
    for (const result of [confirmed, unasked]) {
      expect(result).toMatchObject({ ok: false, error: 'not_ready', message: expect.stringMatching(/catalog/) });
    }
  });
});

describe('beginNegotiation inviting connected suppliers', () => {
  /** A real supplier, connected to its own shared channel (or once connected, its channel since unshared). */
  const realSupplier = (code: string, channel: string, lost = false) =>
    ctx.db.supplier.create({
      data: {
        workspaceId: ctx.workspace.id,
        code,
        name: `Supplier ${code}`,
        qualityRating: 4,
        priceLevel: 'mid',
        leadTimeDays: 50,
        paymentTerms: '33/33/33',
        onTimeDeliveryRate: 0.9,
        defectRate: 0.03,
        responseTimeDays: 2,
        slackChannelId: channel,
        slackTeamId: `T0${code.replace('-', '')}`,
        connectedAt: new Date(),
        connectionLostAt: lost ? new Date() : null,
      },
    });

  it('takes the other connected ones beside a connected quoting supplier, and no supplier whose channel was unshared', async () => {
    const quoting = await realSupplier('SUP-010', 'C0QUOTING1');
    const rival = await realSupplier('SUP-011', 'C0RIVAL001');
    await realSupplier('SUP-012', 'C0LOST0001', true);
    const quotation = await readyQuotation('F0CONNECT1', false);
    await ctx.db.quotation.update({ where: { id: quotation.id }, data: { supplierId: quoting.id } });
    const start = (invitedSuppliers: string[]) =>
      beginNegotiation(ctx, { quotationId: quotation.id, by: BUYER, request: { ...request, invitedSuppliers } });

    // The connected rival passes the check (the start then stops at the baseline: no catalog line).
    expect(await start([rival.code, 'SUP-002'])).toMatchObject({ ok: false, error: 'not_ready' });
    // Unshared, unknown, or the quoting supplier itself as its own rival: refused.
    for (const invited of [['SUP-012'], ['SUP-999'], [quoting.code]]) {
      expect(await start(invited)).toMatchObject({
        ok: false,
        error: 'invalid_input',
        message: expect.stringMatching(/can be invited/),
      });
    }
  });

  it('takes none beside a quoting supplier an agent plays: a simulated side never competes with real ones', async () => {
    const rival = await ctx.db.supplier.findFirstOrThrow({ where: { code: 'SUP-011' } });
    const quotation = await readyQuotation('F0CONNECT2', false);
    const result = await beginNegotiation(ctx, {
      quotationId: quotation.id,
      by: BUYER,
      request: { ...request, invitedSuppliers: [rival.code] },
    });
    expect(result).toMatchObject({ ok: false, error: 'invalid_input' });
  });
});
