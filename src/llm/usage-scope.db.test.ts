// Each LLM call's usage lands on the workspace and quotation that asked for it — also when calls for two quotations
// run at once through the one client (and its concurrency semaphore) — and calls outside any scope record nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createTestDatabase, type TestDatabase } from '../../test/support/test-database.js';
import { startFakeClaude } from '../../test/support/fake-messages-api.js';
import { usageRecorder, withUsageScope } from './usage-scope.js';

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
}, 60_000);
afterAll(async () => {
  await db?.destroy();
});

const request = {
  tier: 'fast' as const,
  purpose: 'test.scope',
  system: 'You read numbers.',
  prompt: 'What is the total?',
  toolName: 'record_answer',
  toolDescription: 'Record the answer.',
  schema: z.object({ total: z.number() }),
  maxTokens: 100,
};

describe('usage scopes', () => {
  it('attributes concurrent calls to their own scope and skips unscoped ones', async () => {
    const workspace = await db.prisma.workspace.create({
      data: { slackTeamId: 'T0SCOPE01', name: 'Scope', brandName: 'Scope' },
    });
    const { api, llm } = await startFakeClaude(
      (_request, index) => ({ kind: 'tool', input: { total: index }, delayMs: 20 * (3 - (index % 3)) }),
      { onUsage: usageRecorder(db.prisma) },
    );
    try {
      const run = (quotationId: string, calls: number) =>
        withUsageScope({ workspaceId: workspace.id, quotationId }, () =>
          Promise.all(Array.from({ length: calls }, () => llm.structured(request))),
        );
      await Promise.all([run('quote-a', 4), run('quote-b', 2)]);
      await llm.structured(request); // no scope: not recorded
      await expect.poll(() => db.prisma.aiUsage.count(), { timeout: 5_000 }).toBe(6);
      const rows = await db.prisma.aiUsage.groupBy({ by: ['quotationId'], _count: { _all: true } });
      expect(Object.fromEntries(rows.map((r) => [r.quotationId, r._count._all]))).toEqual({
        'quote-a': 4,
        'quote-b': 2,
      });
      expect(api.requests).toHaveLength(7);
    } finally {
      await api.close();
    }
  });
});
