// Who is speaking, as every surface names them: the brand's AI negotiator, and the suppliers — a simulated one's every
// reply written by an agent standing in for it, a connected one's by its own people. Labelled on the persona line
// itself, so that nobody reading the thread or a transcript takes a simulated supplier's words for a real supplier's.
import type { SupplierCounterpart } from '../config/business-rules.js';
import { BRAND_PERSONA } from './agents/interfaces.js';

/** Appended to a supplier's name on its persona line. */
export const SIMULATED_SUFFIX = ' (simulated)';
/** Appended to the brand agent's persona line. */
export const AI_AGENT_SUFFIX = ' (AI agent)';

/** "Alex (AI agent) · Valden Outdoor". */
export function brandPersonaLabel(brandName: string): string {
  return `${BRAND_PERSONA}${AI_AGENT_SUFFIX} · ${brandName}`;
}

/** "RapidGear Co (simulated)"; a connected supplier's people speak for it, under its own name. */
export function supplierPersonaLabel(supplierName: string, counterpart: SupplierCounterpart = 'simulated'): string {
  return counterpart === 'connected' ? supplierName : `${supplierName}${SIMULATED_SUFFIX}`;
}
