// A workspace that uninstalled Parley: a negotiation job (or a read) queued before the uninstall is not driven on —
// no agent turn (no Claude call) is paid for messages that could never be posted; the negotiation is left as it was,
// for a reinstall. The same job in a workspace that still has its token runs. Through the facade's job handlers on a
// real database (PGlite, or PostgreSQL with DATABASE_URL), with the offline agents.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadEnv } from '../../config/env.js';
import { createOfflineBrandAgent } from '../../negotiation/agents/offline/brand-agent.js';
import { createOfflineSupplierAgent } from '../../negotiation/agents/offline/supplier-agent.js';
import type { EngineAgents } from '../../negotiation/engine.js';
import { createTestDatabase, type TestDatabase } from '../../../test/support/test-database.js';
import { fakeWork, noFiles } from '../../../test/support/facade-fakes.js';
import { negotiationWorkspace, type NegotiationWorkspace } from '../../../test/support/negotiation-workspace.js';
import { createParley } from '../parley.js';
import { createContextFactory, type ServiceContext } from '../service-context.js';

const TEAM = 'T0UNINSTJ1';

let db: TestDatabase;
let ctx: ServiceContext;
let runningNegotiation: NegotiationWorkspace['runningNegotiation'];

beforeAll(async () => {
  db = await createTestDatabase();
  ({ ctx, runningNegotiation } = await negotiationWorkspace(db.prisma, TEAM));
}, 60_000);
afterAll(() => db?.destroy());

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
    work: fakeWork(),
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
    const { negotiationId } = await runningNegotiation(2);
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
    const { negotiationId } = await runningNegotiation(2);
    const { parley, turns } = facade(true);
    await parley.jobs.driveNegotiation(
      { workspaceId: ctx.workspace.id, negotiationId },
      { id: 'job-2', retryCount: 0 },
    );
    expect(turns.count).toBeGreaterThan(0);
    expect(await messages(negotiationId)).toBeGreaterThan(0);
  }, 60_000);
});
