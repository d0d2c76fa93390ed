// USD per call from token counts, at the prices of business-rules (LLM_PRICES_PER_MTOK, LLM_CACHE_PRICE_FACTORS).
import { LLM_CACHE_PRICE_FACTORS, LLM_PRICES_PER_MTOK } from '../config/business-rules.js';

/** What one call consumed, as the Messages API reports it: `inputTokens` excludes the cached part of the prompt. */
export interface TokenUsage {
  inputTokens: number;
  outputTokens: number;
  /** Prompt tokens written to the cache by this call (billed at 1.25× input). */
  cacheCreationInputTokens?: number;
  /** Prompt tokens read from the cache by this call (billed at 0.1× input). */
  cacheReadInputTokens?: number;
}

/** Model ids carry a date suffix ("claude-haiku-4-5-20251001"); prices are keyed by the family. */
export function priceFor(model: string): { input: number; output: number } {
  // The longest matching family wins, so "claude-sonnet-4-5" never prices a "claude-sonnet-4-50" by accident.
  const family = Object.keys(LLM_PRICES_PER_MTOK)
    .filter((prefix) => model.startsWith(prefix))
    .sort((a, b) => b.length - a.length)[0];
  // An unknown model is priced as the dearest known one, so cost is never under-reported.
  return (family === undefined ? undefined : LLM_PRICES_PER_MTOK[family]) ?? mostExpensive();
}

function mostExpensive() {
  return Object.values(LLM_PRICES_PER_MTOK).reduce((a, b) => (b.output > a.output ? b : a));
}

export function costUsd(model: string, usage: TokenUsage): number {
  const price = priceFor(model);
  const input =
    usage.inputTokens +
    (usage.cacheCreationInputTokens ?? 0) * LLM_CACHE_PRICE_FACTORS.write +
    (usage.cacheReadInputTokens ?? 0) * LLM_CACHE_PRICE_FACTORS.read;
  return (input * price.input + usage.outputTokens * price.output) / 1_000_000;
}
