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
