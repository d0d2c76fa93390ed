// Usage summed per purpose and per model, and one call as an AI usage row that fits today's table.
import { afterAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../test/support/test-database.js';
import type { LlmUsage } from './llm.js';
import { aiUsageRow, summarizeUsage } from './usage.js';

function call(purpose: string, model: string, tokens: Partial<LlmUsage>): LlmUsage {
  return {
    purpose,
    model,
    inputTokens: 0,
    cacheCreationInputTokens: 0,
    cacheReadInputTokens: 0,
    outputTokens: 0,
    costUsd: 0,
    latencyMs: 10,
    outcome: 'ok',
    ...tokens,
  };
}

const CALLS = [
  call('negotiation.supplier.respond', 'claude-sonnet-4-6', {
    inputTokens: 300,
    cacheCreationInputTokens: 1_800,
    outputTokens: 180,
    costUsd: 0.01,
  }),
  call('negotiation.supplier.respond', 'claude-sonnet-4-6', {
    inputTokens: 250,
    cacheReadInputTokens: 1_800,
    outputTokens: 170,
    costUsd: 0.004,
  }),
  call('negotiation.brand.synthesize', 'claude-haiku-4-5-20251001', {
    inputTokens: 1_500,
    outputTokens: 170,
    costUsd: 0.0024,
  }),
  call('decision.write', 'claude-sonnet-4-6', {
    inputTokens: 2_000,
    outputTokens: 400,
    costUsd: 0.012,
    outcome: 'invalid',
  }),
];

describe('summarizeUsage', () => {
  it('sums calls, tokens and cost per purpose and model, dearest first', () => {
    const rows = summarizeUsage(CALLS);
    expect(rows.map((row) => row.purpose)).toEqual([
      'negotiation.supplier.respond',
      'decision.write',
      'negotiation.brand.synthesize',
    ]);
    expect(rows[0]).toEqual({
      purpose: 'negotiation.supplier.respond',
      model: 'claude-sonnet-4-6',
      calls: 2,
      inputTokens: 550,
      cacheCreationInputTokens: 1_800,
      cacheReadInputTokens: 1_800,
      outputTokens: 350,
      costUsd: 0.014,
    });
  });

  it('sums per model alone', () => {
    const rows = summarizeUsage(CALLS, 'model');
    expect(rows.map(({ purpose, model, calls }) => [purpose, model, calls])).toEqual([
      ['*', 'claude-sonnet-4-6', 3],
      ['*', 'claude-haiku-4-5-20251001', 1],
    ]);
    expect(rows[0]?.costUsd).toBeCloseTo(0.026, 12);
  });
});

describe('aiUsageRow', () => {
  it('keeps the API’s meaning of inputTokens, the cache tokens apart, and a cost that already prices the cache', () => {
    const usage = call('negotiation.supplier.respond', 'claude-sonnet-4-6', {
      inputTokens: 250,
      cacheReadInputTokens: 1_800,
      outputTokens: 170,
      costUsd: 0.00384012345,
    });
    expect(aiUsageRow(usage, { workspaceId: 'ws_1', negotiationId: 'neg_1' })).toEqual({
      workspaceId: 'ws_1',
      negotiationId: 'neg_1',
      quotationId: null,
      purpose: 'negotiation.supplier.respond',
      model: 'claude-sonnet-4-6',
      inputTokens: 250,
      cacheCreationInputTokens: 0,
      cacheReadInputTokens: 1_800,
      outputTokens: 170,
      costUsd: 0.00384,
      latencyMs: 10,
      outcome: 'ok',
    });
  });

  describe('in the database', () => {
    let db: TestDatabase | undefined;
    afterAll(async () => {
      await db?.destroy();
    });

    it('fits today’s AiUsage columns', async () => {
      db = await createTestDatabase();
      const workspace = await db.prisma.workspace.create({
        data: { slackTeamId: 'TUSAGE', name: 'Valden', brandName: 'Valden Outdoor' },
      });
      const usage = call('decision.write', 'claude-sonnet-4-6', {
        inputTokens: 2_000,
        outputTokens: 400,
        costUsd: 0.012,
      });
      await db.prisma.aiUsage.create({ data: aiUsageRow(usage, { workspaceId: workspace.id }) });
      const [row] = await db.prisma.aiUsage.findMany({ where: { workspaceId: workspace.id } });
      expect(row).toMatchObject({ purpose: 'decision.write', inputTokens: 2_000, outputTokens: 400, outcome: 'ok' });
      expect(row?.costUsd.toNumber()).toBe(0.012);
    });
  });
});
