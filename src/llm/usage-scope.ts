// Which workspace, negotiation or quotation an LLM call is for. The Claude client is one per process and reports
// every call's usage through one callback; the service that makes the calls runs them inside `withUsageScope`, and
// the callback finds the scope here (AsyncLocalStorage follows the awaits, through the concurrency semaphores too).
import { AsyncLocalStorage } from 'node:async_hooks';
import type { PrismaClient } from '../db/client.js';
import { log } from '../log.js';
import type { LlmUsage } from './llm.js';
import { type AiUsageScope, aiUsageRow } from './usage.js';

const scopes = new AsyncLocalStorage<AiUsageScope>();

export function withUsageScope<T>(scope: AiUsageScope, work: () => Promise<T>): Promise<T> {
  return scopes.run(scope, work);
}

export function currentUsageScope(): AiUsageScope | undefined {
  return scopes.getStore();
}

/**
 * The client's usage callback: one `AiUsage` row per call, and the negotiation's running totals. Accounting, not
 * state: written beside the step rather than in its transaction, and a failure to write it is logged, never raised.
 */
export function usageRecorder(prisma: PrismaClient) {
  return (usage: LlmUsage): void => {
    const scope = currentUsageScope();
    if (!scope) return log.debug('LLM call outside any usage scope', { purpose: usage.purpose });
    void (async () => {
      await prisma.aiUsage.create({ data: aiUsageRow(usage, scope) });
      if (scope.negotiationId) {
        await prisma.negotiation.update({
          where: { id: scope.negotiationId },
          data: {
            totalTokens: {
              increment:
                usage.inputTokens + usage.cacheCreationInputTokens + usage.cacheReadInputTokens + usage.outputTokens,
            },
            totalCostUsd: { increment: Math.round(usage.costUsd * 1e6) / 1e6 },
          },
        });
      }
    })().catch((error: unknown) => log.error('recording LLM usage failed', { error, purpose: usage.purpose }));
  };
}
