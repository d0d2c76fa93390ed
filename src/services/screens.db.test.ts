// The App Home against a real database (PGlite, or DATABASE_URL's PostgreSQL): what opening it reads.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadEnv } from '../config/env.js';
import type { PrismaClient } from '../db/client.js';
import { seedWorkspace } from '../db/seed.js';
import { createTestDatabase, type TestDatabase } from '../../test/support/test-database.js';
import { createScreens } from './screens.js';
import { createContextFactory } from './service-context.js';

const TEAM = 'T0HOMEREAD';
const BUYER = 'U0BUYER001';

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
  await seedWorkspace(db.prisma, { slackTeamId: TEAM, brandName: 'Valden Outdoor', catalog: [] });
});
afterAll(() => db?.destroy());

describe('the App Home', () => {
  it('never reads a negotiation’s checkpoint, running or ended (megabytes at 3,000 lines, read on every open)', async () => {
    const workspace = await db.prisma.workspace.findUniqueOrThrow({ where: { slackTeamId: TEAM } });
    const checkpoint = { lines: Array.from({ length: 3_000 }, (_, i) => ({ sku: `SKU-${i}`, unitPrice: 10 })) };
    for (const [n, status] of (['negotiating', 'completed'] as const).entries()) {
      const quotation = await db.prisma.quotation.create({
        data: {
          workspaceId: workspace.id,
          slackFileId: `F0HOME${n}`,
          slackChannelId: 'C0HOME0001',
          slackThreadTs: `1767225600.00030${n}`,
          slackMessageTs: `1767225600.00030${n}`,
          uploadedBySlackUserId: BUYER,
          fileName: `quote-${n}.xlsx`,
          status: 'negotiating',
        },
      });
      await db.prisma.negotiation.create({
        data: {
          workspaceId: workspace.id,
          quotationId: quotation.id,
          rngSeed: 1,
          startedBySlackUserId: BUYER,
          status,
          checkpoint,
        },
      });
    }
    // The screens over a client that notes every negotiation row a findMany returns with its checkpoint.
    let checkpointsRead = 0;
    let negotiationsRead = 0;
    const counting = db.prisma.$extends({
      query: {
        negotiation: {
          async findMany({ args, query }) {
            const rows = await query(args);
            negotiationsRead += rows.length;
            checkpointsRead += rows.filter((row) => 'checkpoint' in row).length;
            return rows;
          },
        },
      },
    }) as unknown as PrismaClient;
    const contexts = createContextFactory({ prisma: counting, env: loadEnv({}), llm: null, now: () => new Date() });
    const screens = createScreens({ contexts, prisma: counting });

    const home = await screens.home(TEAM, BUYER);
    const shown = JSON.stringify(home);
    expect(shown).toContain('quote-0.xlsx');
    expect(shown).toContain('quote-1.xlsx');
    expect(negotiationsRead).toBe(2);
    expect(checkpointsRead).toBe(0);
  });
});
