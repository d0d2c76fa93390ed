// USD per call from token counts, at the seed's prices (business-rules LLM_PRICES_PER_MTOK).
import { LLM_PRICES_PER_MTOK } from '../config/business-rules.js';

/** Model ids carry a date suffix ("claude-haiku-4-5-20251001"); prices are keyed by the family. */
export function priceFor(model: string): { input: number; output: number } {
  const family = Object.keys(LLM_PRICES_PER_MTOK).find((prefix) => model.startsWith(prefix));
  // An unknown model is priced as the dearest known one, so cost is never under-reported.
  return family ? (LLM_PRICES_PER_MTOK[family] ?? mostExpensive()) : mostExpensive();
}

function mostExpensive() {
  return Object.values(LLM_PRICES_PER_MTOK).reduce((a, b) => (b.output > a.output ? b : a));
}

export function costUsd(model: string, inputTokens: number, outputTokens: number): number {
  const price = priceFor(model);
  return (inputTokens * price.input + outputTokens * price.output) / 1_000_000;
}
