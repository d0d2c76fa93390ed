// Which figures about a supplier came from the supplier, and which are Parley's own assumptions. Scoring needs a
// number for every factor, so a missing lead time, payment terms or track record is filled with a default
// (config/business-rules.ts QUOTED_SUPPLIER_DEFAULTS); this module remembers which ones were filled, so that no
// message, analysis row, recommendation or PO ever presents an assumption as something the supplier said.
import { z } from 'zod';
import { paymentTermsSchema } from '../commerce/payment-terms.js';
import type { SupplierProfile } from '../config/business-rules.js';

export const SUPPLIER_FACTS = [
  'leadTimeDays',
  'paymentTerms',
  'onTimeDeliveryRate',
  'defectRate',
  'qualityRating',
] as const;
export type SupplierFact = (typeof SUPPLIER_FACTS)[number];
export const supplierFactSchema = z.enum(SUPPLIER_FACTS);

/** The terms a supplier states in every offer it makes: its reply turns them from assumptions into its own word. */
export const OFFER_FACTS: readonly SupplierFact[] = ['leadTimeDays', 'paymentTerms'];
/** A track record: only order history shows it, so a supplier without any keeps these as assumptions. */
export const TRACK_RECORD_FACTS: readonly SupplierFact[] = ['onTimeDeliveryRate', 'defectRate', 'qualityRating'];

/** How a fact is named in a sentence: "lead time", "payment terms". */
export const FACT_WORDS: Readonly<Record<SupplierFact, string>> = {
  leadTimeDays: 'lead time',
  paymentTerms: 'payment terms',
  onTimeDeliveryRate: 'on-time delivery rate',
  defectRate: 'defect rate',
  qualityRating: 'quality rating',
};

/** What a missing fact is shown as until the supplier states it. */
export const NOT_STATED = 'not stated';

/**
 * One fact that started as an assumption. `statedAtMessage` is the sequence number of the supplier message whose
 * offer stated it (from then on it is the supplier's); null while it is still assumed.
 */
export const assumptionSchema = z.object({
  fact: supplierFactSchema,
  statedAtMessage: z.number().int().positive().nullable(),
});
export type Assumption = z.infer<typeof assumptionSchema>;

/** Supplier code → the facts about it that began as assumptions. */
export const assumptionsSchema = z.record(z.string(), z.array(assumptionSchema));
export type Assumptions = z.infer<typeof assumptionsSchema>;

/**
 * The facts a negotiation starts without: the quoting supplier's lead time and payment terms when its quotation
 * states none (or none that reads as instalments), a connected competitor's until it states them (it has quoted
 * nothing yet), and the track record of any supplier with no order history.
 */
export function initialAssumptions(
  quotation: { leadTimeDays: number | null; paymentTerms: string | null },
  profiles: readonly (Pick<SupplierProfile, 'code' | 'totalOrdersCount'> &
    Partial<Pick<SupplierProfile, 'counterpart'>>)[],
): Assumptions {
  const [quoted] = profiles;
  const assumptions: Assumptions = {};
  for (const profile of profiles) {
    const facts: SupplierFact[] = [];
    if (profile === quoted) {
      if (quotation.leadTimeDays === null) facts.push('leadTimeDays');
      if (!paymentTermsSchema.safeParse(quotation.paymentTerms?.trim()).success) facts.push('paymentTerms');
    } else if (profile.counterpart === 'connected') facts.push('leadTimeDays', 'paymentTerms');
    if (profile.totalOrdersCount <= 0) facts.push(...TRACK_RECORD_FACTS);
    if (facts.length > 0) assumptions[profile.code] = facts.map((fact) => ({ fact, statedAtMessage: null }));
  }
  return assumptions;
}

/** The facts about this supplier that are still assumptions. */
export function assumedFacts(assumptions: Assumptions | undefined, supplierCode: string): SupplierFact[] {
  return (assumptions?.[supplierCode] ?? []).filter((a) => a.statedAtMessage === null).map((a) => a.fact);
}

/** Every supplier's still-assumed facts, by code (what an agent's context carries). */
export function assumedFactsByCode(assumptions: Assumptions | undefined): Record<string, SupplierFact[]> {
  return Object.fromEntries(
    Object.keys(assumptions ?? {}).map((code) => [code, assumedFacts(assumptions, code)] as const),
  );
}

/** Whether the fact was still an assumption when the message with this sequence number was written. */
export function wasAssumedAt(
  assumptions: Assumptions | undefined,
  supplierCode: string,
  fact: SupplierFact,
  sequence: number,
): boolean {
  const entry = assumptions?.[supplierCode]?.find((a) => a.fact === fact);
  if (entry === undefined) return false;
  return entry.statedAtMessage === null || sequence < entry.statedAtMessage;
}

/** Marks facts as stated by the supplier message `sequence`; facts already stated keep their first statement. */
export function stateFacts(
  assumptions: Assumptions,
  supplierCode: string,
  facts: readonly SupplierFact[],
  sequence: number,
): Assumptions {
  const entries = assumptions[supplierCode];
  if (entries === undefined) return assumptions;
  return {
    ...assumptions,
    [supplierCode]: entries.map((a) =>
      a.statedAtMessage === null && facts.includes(a.fact) ? { ...a, statedAtMessage: sequence } : a,
    ),
  };
}

/**
 * Marks facts as Parley's assumptions: the terms a supplier's offer left out that Parley filled from its own records.
 * A fact already tracked keeps its entry (one the supplier stated stays stated: what it said last still stands).
 */
export function assumeFacts(
  assumptions: Assumptions,
  supplierCode: string,
  facts: readonly SupplierFact[],
): Assumptions {
  const entries = assumptions[supplierCode] ?? [];
  const added = facts.filter((fact) => !entries.some((a) => a.fact === fact));
  if (added.length === 0) return assumptions;
  return { ...assumptions, [supplierCode]: [...entries, ...added.map((fact) => ({ fact, statedAtMessage: null }))] };
}

/** "90% (assumed)": a figure Parley filled in, labelled wherever it is shown. */
export function labelAssumed(text: string, assumed: boolean): string {
  return assumed ? `${text} (assumed)` : text;
}

/**
 * A figure as shown to the buyer: the supplier's own as it is; a term it was asked for and has not stated yet as
 * "not stated (50 days assumed)"; a track record it has none of as "90% (assumed)".
 */
export function showFact(fact: SupplierFact, text: string, assumed: boolean): string {
  if (!assumed) return text;
  return OFFER_FACTS.includes(fact) ? `${NOT_STATED} (${text} assumed)` : labelAssumed(text, true);
}
