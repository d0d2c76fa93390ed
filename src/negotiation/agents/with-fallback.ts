// Claude first, the offline twin when Claude fails: any error from the primary agent — the API failing after the
// SDK's retries, a timeout, output that stayed invalid, a bug in reading it — makes that one call come from the
// offline twin with the same context, so a negotiation never fails because of Claude. The twin's randomness comes from
// the context's rng, which the Claude agents never draw from, so a fallback turn is the turn an offline run would have
// produced at that point.
import type { BrandAgent, SupplierAgent } from './interfaces.js';

export const FALLBACK_PURPOSES = {
  rfq: 'negotiation.brand.rfq',
  pillars: 'negotiation.brand.pillars',
  synthesize: 'negotiation.brand.synthesize',
  respond: 'negotiation.supplier.respond',
} as const;
export type FallbackPurpose = (typeof FALLBACK_PURPOSES)[keyof typeof FALLBACK_PURPOSES];

export interface FallbackOptions {
  /** Told of every call the offline twin answered instead, with the primary's error (for logs and AI usage). */
  onFallback?: (purpose: FallbackPurpose, error: unknown) => void;
}

async function firstOrOffline<T>(
  purpose: FallbackPurpose,
  primary: () => Promise<T>,
  offline: () => Promise<T>,
  options: FallbackOptions,
): Promise<T> {
  try {
    return await primary();
  } catch (error) {
    options.onFallback?.(purpose, error);
    return offline();
  }
}

/**
 * Each method falls back on its own: pillars that failed leave the synthesis to Claude, and the other way round —
 * whatever Claude managed in a turn is kept.
 */
export function brandWithFallback(primary: BrandAgent, offline: BrandAgent, options: FallbackOptions = {}): BrandAgent {
  return {
    rfq: (context) =>
      firstOrOffline(
        FALLBACK_PURPOSES.rfq,
        () => primary.rfq(context),
        () => offline.rfq(context),
        options,
      ),
    pillars: (context) =>
      firstOrOffline(
        FALLBACK_PURPOSES.pillars,
        () => primary.pillars(context),
        () => offline.pillars(context),
        options,
      ),
    synthesize: (context, briefs) =>
      firstOrOffline(
        FALLBACK_PURPOSES.synthesize,
        () => primary.synthesize(context, briefs),
        () => offline.synthesize(context, briefs),
        options,
      ),
  };
}

export function supplierWithFallback(
  primary: SupplierAgent,
  offline: SupplierAgent,
  options: FallbackOptions = {},
): SupplierAgent {
  return {
    respond: (context) =>
      firstOrOffline(
        FALLBACK_PURPOSES.respond,
        () => primary.respond(context),
        () => offline.respond(context),
        options,
      ),
  };
}
