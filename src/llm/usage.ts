// What Claude calls cost, summed the way people ask about it (per purpose, per model), and one call as an AI usage row.
import type { Prisma } from '../generated/prisma/client.js';
import type { LlmUsage } from './llm.js';

export interface UsageSummaryRow {
  /** The purpose, or '*' in a per-model summary. */
  purpose: string;
  model: string;
  calls: number;
  inputTokens: number;
  cacheCreationInputTokens: number;
  cacheReadInputTokens: number;
  outputTokens: number;
  costUsd: number;
}

/** Calls grouped by purpose and model (or by model alone), dearest first. */
export function summarizeUsage(entries: readonly LlmUsage[], by: 'purpose' | 'model' = 'purpose'): UsageSummaryRow[] {
  const rows = new Map<string, UsageSummaryRow>();
  for (const entry of entries) {
    const purpose = by === 'purpose' ? entry.purpose : '*';
    const key = `${purpose}\u0000${entry.model}`;
    const row = rows.get(key) ?? {
      purpose,
      model: entry.model,
      calls: 0,
      inputTokens: 0,
      cacheCreationInputTokens: 0,
      cacheReadInputTokens: 0,
      outputTokens: 0,
      costUsd: 0,
    };
    row.calls += 1;
    row.inputTokens += entry.inputTokens;
    row.cacheCreationInputTokens += entry.cacheCreationInputTokens;
    row.cacheReadInputTokens += entry.cacheReadInputTokens;
    row.outputTokens += entry.outputTokens;
    row.costUsd += entry.costUsd;
    rows.set(key, row);
  }
  return [...rows.values()].sort((a, b) => b.costUsd - a.costUsd || a.purpose.localeCompare(b.purpose));
}

export interface AiUsageScope {
  workspaceId: string;
  negotiationId?: string | null;
  quotationId?: string | null;
}

/** One call as an `AiUsage` row: `inputTokens` is the uncached part of the prompt, as the API reports it. */
export function aiUsageRow(usage: LlmUsage, scope: AiUsageScope): Prisma.AiUsageUncheckedCreateInput {
  return {
    workspaceId: scope.workspaceId,
    negotiationId: scope.negotiationId ?? null,
    quotationId: scope.quotationId ?? null,
    purpose: usage.purpose,
    model: usage.model,
    inputTokens: usage.inputTokens,
    cacheCreationInputTokens: usage.cacheCreationInputTokens,
    cacheReadInputTokens: usage.cacheReadInputTokens,
    outputTokens: usage.outputTokens,
    // The column is Decimal(12, 6): round here rather than let the driver truncate.
    costUsd: Math.round(usage.costUsd * 1e6) / 1e6,
    latencyMs: usage.latencyMs,
    outcome: usage.outcome,
  };
}
