// A workspace that uninstalled Parley: a negotiation job (or a read) queued before the uninstall is not driven on —
// no agent turn (no Claude call) is paid for messages that could never be posted; the negotiation is left as it was,
// for a reinstall. The same job in a workspace that still has its token runs. Through the facade's job handlers on a
// real database (PGlite, or PostgreSQL with DATABASE_URL), with the offline agents.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QUOTED_SUPPLIER_DEFAULTS } from '../../config/business-rules.js';
import { loadEnv } from '../../config/env.js';
import { seedWorkspace, supplierColumns } from '../../db/seed.js';
import { startNegotiation } from '../../db/stores/negotiation-store.js';
import { createOfflineBrandAgent } from '../../negotiation/agents/offline/brand-agent.js';
import { createOfflineSupplierAgent } from '../../negotiation/agents/offline/supplier-agent.js';
import type { EngineAgents } from '../../negotiation/engine.js';
import { createTestDatabase, type TestDatabase } from '../../../test/support/test-database.js';
import { exampleSetup } from '../../../test/support/negotiation-fixtures.js';
import { createParley } from '../parley.js';
import type { SlackFiles } from '../quotation/download-shared-file.js';
import { createContextFactory, type ServiceContext } from '../service-context.js';

const TEAM = 'T0UNINSTJ1';
const BUYER = 'U0BUYER001';

let db: TestDatabase;
let ctx: ServiceContext;
let supplierIds: Record<string, string>;

const noFiles: SlackFiles = {
  info: () => Promise.reject(new Error('no files in this test')),
  download: () => Promise.reject(new Error('no files in this test')),
  channel: () => Promise.reject(new Error('no files in this test')),
  recentFiles: () => Promise.reject(new Error('no files in this test')),
};

beforeAll(async () => {
  db = await createTestDatabase();
  const { workspaceId } = await seedWorkspace(db.prisma, {
    slackTeamId: TEAM,
    brandName: 'Valden Outdoor',
    catalog: [],
  });
  const found = await createContextFactory({ prisma: db.prisma, env: loadEnv({}), llm: null }).forTeam(TEAM);
  if (!found) throw new Error('no workspace');
  ctx = found;
  const quoted = await ctx.db.supplier.create({
    data: { workspaceId, ...supplierColumns({ ...QUOTED_SUPPLIER_DEFAULTS, code: 'SUP-004', name: 'Ningbo' }) },
  });
  const simulated = await ctx.db.supplier.findMany({ where: { isSimulated: true } });
  supplierIds = { 'SUP-001': quoted.id, ...Object.fromEntries(simulated.map((s) => [s.code, s.id])) };
}, 60_000);
afterAll(() => db?.destroy());

let files = 0;
async function runningNegotiation() {
  const n = ++files;
  const quotation = await ctx.db.quotation.create({
    data: {
      workspaceId: ctx.workspace.id,
      slackFileId: `F0UNINSTJ${n}`,
      slackChannelId: 'C0UNINSTJ1',
      slackThreadTs: `1767225600.00020${n}`,
      slackMessageTs: `1767225600.00020${n}`,
      uploadedBySlackUserId: BUYER,
      fileName: 'quote.xlsx',
      status: 'negotiating',
      supplierId: supplierIds['SUP-001'],
    },
  });
  return startNegotiation(ctx.db, {
    quotationId: quotation.id,
    startedBySlackUserId: BUYER,
    setup: exampleSetup(2, { questionBudget: 0 }),
    supplierIds,
    questionBudget: 0,
  });
}

/** The facade with agents that count their turns, in a workspace that has (or no longer has) its bot token. */
function facade(hasToken: boolean) {
  const turns = { count: 0 };
  const agents: EngineAgents = {
    brand: createOfflineBrandAgent(),
    supplier: () => ({
      respond(context) {
        turns.count += 1;
        return createOfflineSupplierAgent().respond(context);
      },
    }),
  };
  const parley = createParley({
    contexts: createContextFactory({ prisma: db.prisma, env: loadEnv({}), llm: null }),
    work: {
      driveNegotiation: async () => {},
      readQuotation: async () => {},
      sendReviewWorkbook: async () => {},
      sendPurchaseOrderWorkbook: async () => {},
      idle: async () => {},
    },
    agents,
    owner: 'instance-a',
    files: noFiles,
    kickOutbox: () => {},
    hasSlackToken: async (workspaceId) => {
      expect(workspaceId).toBe(ctx.workspace.id);
      return hasToken;
    },
  });
  return { parley, turns };
}

const messages = (negotiationId: string) => ctx.db.message.count({ where: { negotiationId } });

describe('jobs of a workspace that uninstalled Parley', () => {
  it('does not drive a negotiation on: no agent turn, nothing saved', async () => {
    const { negotiationId } = await runningNegotiation();
    const before = await ctx.db.negotiation.findUniqueOrThrow({ where: { id: negotiationId } });
    const { parley, turns } = facade(false);
    await parley.jobs.driveNegotiation(
      { workspaceId: ctx.workspace.id, negotiationId },
      { id: 'job-1', retryCount: 0 },
    );
    expect(turns.count).toBe(0);
    expect(await messages(negotiationId)).toBe(0);
    expect(await ctx.db.negotiation.findUniqueOrThrow({ where: { id: negotiationId } })).toEqual(before);
  });

  it('drives the same negotiation where the token is still there', async () => {
    const { negotiationId } = await runningNegotiation();
    const { parley, turns } = facade(true);
    await parley.jobs.driveNegotiation(
      { workspaceId: ctx.workspace.id, negotiationId },
      { id: 'job-2', retryCount: 0 },
    );
    expect(turns.count).toBeGreaterThan(0);
    expect(await messages(negotiationId)).toBeGreaterThan(0);
  }, 60_000);
});
