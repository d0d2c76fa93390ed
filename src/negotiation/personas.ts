// Who is speaking, as every surface names them: the brand's AI negotiator, and the suppliers, whose every reply is
// written by an agent standing in for them. Labelled on the persona line itself, so that nobody reading the thread or
// a transcript takes a simulated supplier's words for a real supplier's.
import { BRAND_PERSONA } from './agents/interfaces.js';

/** Appended to a supplier's name on its persona line. */
export const SIMULATED_SUFFIX = ' (simulated)';
/** Appended to the brand agent's persona line. */
export const AI_AGENT_SUFFIX = ' (AI agent)';

/** "Alex (AI agent) · Valden Outdoor". */
export function brandPersonaLabel(brandName: string): string {
  return `${BRAND_PERSONA}${AI_AGENT_SUFFIX} · ${brandName}`;
}

/** "RapidGear Co (simulated)". */
export function supplierPersonaLabel(supplierName: string): string {
  return `${supplierName}${SIMULATED_SUFFIX}`;
}
