// Database fixtures of the negotiation tests: the suppliers a negotiation is started with, a workspace whose
// negotiations are just started (their first step a job's), and negotiations that have just completed with offers
// worked out by hand (their conclusion the test's).
import { QUOTED_SUPPLIER_DEFAULTS, type NegotiationMode } from '../../src/config/business-rules.js';
import { loadEnv } from '../../src/config/env.js';
import type { PrismaClient } from '../../src/db/client.js';
import { toJsonColumn } from '../../src/db/json.js';
import type { WorkspaceDb } from '../../src/db/scoped.js';
import { seedWorkspace, supplierColumns } from '../../src/db/seed.js';
import { startNegotiation } from '../../src/db/stores/negotiation-store.js';
import type { MandateInput } from '../../src/negotiation/mandate.js';
import type { Offer } from '../../src/negotiation/types.js';
import { createContextFactory, type ServiceContext } from '../../src/services/service-context.js';
import { baselineOf, offerOf, PROFILES } from './decide-fixtures.js';
import { exampleSetup } from './negotiation-fixtures.js';

export const BUYER = 'U0BUYER001';

/**
 * The quoted supplier (a row of its own) and the seed's simulated ones, by the codes a negotiation's setup names them:
 * the quote's supplier is SUP-001 there.
 */
export async function seedNegotiationSuppliers(ws: WorkspaceDb): Promise<Record<string, string>> {
  const quoted = await ws.supplier.create({
    data: {
      workspaceId: ws.$workspaceId,
      ...supplierColumns({ ...QUOTED_SUPPLIER_DEFAULTS, code: 'SUP-004', name: 'Ningbo Everbright' }),
    },
  });
  const simulated = await ws.supplier.findMany({ where: { isSimulated: true } });
  return { 'SUP-001': quoted.id, ...Object.fromEntries(simulated.map((s) => [s.code, s.id])) };
}

/** A seeded workspace (no catalog), its context and suppliers, and negotiations started in it. */
export async function negotiationWorkspace(prisma: PrismaClient, slackTeamId: string) {
  await seedWorkspace(prisma, { slackTeamId, brandName: 'Valden Outdoor', catalog: [] });
  const found = await createContextFactory({ prisma, env: loadEnv({}), llm: null }).forTeam(slackTeamId);
  if (!found) throw new Error('no workspace');
  const ctx: ServiceContext = found;
  const supplierIds = await seedNegotiationSuppliers(ctx.db);
  let files = 0;

  /** The example negotiation (`seed`, no questions) just started on a quotation of its own: no step taken yet. */
  async function runningNegotiation(seed: number) {
    const n = ++files;
    const quotation = await ctx.db.quotation.create({
      data: {
        workspaceId: ctx.workspace.id,
        slackFileId: `F0RUNNING${n}`,
        slackChannelId: 'C0RUNNING1',
        slackThreadTs: `1767225600.${String(n).padStart(6, '0')}`,
        slackMessageTs: `1767225600.${String(n).padStart(6, '0')}`,
        uploadedBySlackUserId: BUYER,
        fileName: 'quote.xlsx',
        status: 'negotiating',
        supplierId: supplierIds['SUP-001'],
      },
    });
    return startNegotiation(ctx.db, {
      quotationId: quotation.id,
      startedBySlackUserId: BUYER,
      setup: exampleSetup(seed, { questionBudget: 0 }),
      supplierIds,
      questionBudget: 0,
    });
  }

  return { ctx, supplierIds, runningNegotiation };
}

export type NegotiationWorkspace = Awaited<ReturnType<typeof negotiationWorkspace>>;

/**
 * Quoted: A and B, 100 units each at $100, FOB, paid on delivery, 50 days: $20,000, landed $23,600 with 6% freight
 * and 12% duty. Final offers: Ningbo Everbright $19,000 in 50 days ($22,420 landed), Alpine Premium $21,000 in 40,
 * RapidGear $20,500 in 15 days ($24,190 landed, $590 above the quote). In speed mode RapidGear is the best award but
 * costs more than the quote: Ningbo Everbright is awarded, and RapidGear offered for $1,770 more, 35 days sooner.
 */
const baseline = baselineOf({ A: 100, B: 100 }, { leadTimeDays: 50 });
const quoted = offerOf('SUP-001', { A: 100, B: 100 }, { round: 0, leadTimeDays: 50 });
const finals: Offer[] = [
  offerOf('SUP-001', { A: 95, B: 95 }, { leadTimeDays: 50 }),
  offerOf('SUP-002', { A: 105, B: 105 }, { leadTimeDays: 40 }),
  offerOf('SUP-003', { A: 102.5, B: 102.5 }, { leadTimeDays: 15 }),
];

/**
 * Negotiations in `ws` that have just completed with the offers above, each on a quotation of its own (the engine's
 * own run is tested elsewhere): what a conclusion starts from.
 */
export function completedNegotiations(ws: WorkspaceDb, supplierIds: Record<string, string>, buyer = BUYER) {
  let files = 0;
  return async function completedNegotiation(mode: NegotiationMode, mandate: MandateInput = {}): Promise<string> {
    const row = await ws.quotation.create({
      data: {
        workspaceId: ws.$workspaceId,
        slackFileId: `F${++files}`,
        slackChannelId: 'C1',
        slackThreadTs: `1767000000.${String(files).padStart(6, '0')}`,
        uploadedBySlackUserId: buyer,
        fileName: 'quote.xlsx',
        status: 'negotiating',
      },
    });
    const { negotiationId, state } = await startNegotiation(ws, {
      quotationId: row.id,
      startedBySlackUserId: buyer,
      setup: {
        seed: 1,
        brandName: 'Valden',
        mode,
        maxRounds: 4,
        mandate,
        buyerNotes: null,
        baseline,
        profiles: [...PROFILES],
      },
      supplierIds,
      questionBudget: 0,
    });
    const suppliers = Object.fromEntries(
      Object.entries(state.suppliers).map(([code, supplier]) => {
        const last = finals.find((offer) => offer.supplierCode === code);
        const offers = code === 'SUP-001' ? [quoted, ...(last ? [last] : [])] : last ? [last] : [];
        return [code, { ...supplier, status: 'completed' as const, offers }];
      }),
    );
    const completed = { ...state, status: 'completed' as const, suppliers };
    // Written whole under a new version, as every checkpoint write is: a process remembers the state of a version it
    // saved (checkpoint-store.ts), so rewriting a version in place would be read as the state startNegotiation saved.
    await ws.negotiation.update({
      where: { id: negotiationId },
      data: {
        checkpoint: toJsonColumn(completed),
        checkpointVersion: { increment: 1 },
        status: 'completed',
        completedAt: new Date(),
      },
    });
    return negotiationId;
  };
}
