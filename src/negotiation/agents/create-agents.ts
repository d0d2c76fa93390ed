// The agents a negotiation runs with: Claude with its offline twin behind every turn when there is a key, the offline
// twins alone when there is none. The one place that decides.
import type { Llm } from '../../llm/llm.js';
import type { EngineAgents } from '../engine.js';
import { createClaudeBrandAgent } from './claude/brand-agent.js';
import { createClaudeSupplierAgent } from './claude/supplier-agent.js';
import { createOfflineBrandAgent } from './offline/brand-agent.js';
import { createOfflineSupplierAgent } from './offline/supplier-agent.js';
import { brandWithFallback, type FallbackOptions, supplierWithFallback } from './with-fallback.js';

export function createNegotiationAgents(llm: Llm | null, options: FallbackOptions = {}): EngineAgents {
  const offlineBrand = createOfflineBrandAgent();
  const offlineSupplier = createOfflineSupplierAgent();
  if (!llm) return { brand: offlineBrand, supplier: () => offlineSupplier };
  const brand = brandWithFallback(createClaudeBrandAgent(llm), offlineBrand, options);
  const supplier = supplierWithFallback(createClaudeSupplierAgent(llm), offlineSupplier, options);
  return { brand, supplier: () => supplier };
}
