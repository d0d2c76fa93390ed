// What the brand agent may tell one supplier about the others. By default (the workspace's setting) it names no
// competitor, quotes no competitor's price or lead time and says nothing of a competitor's problems: it says only how
// much lower a competing offer is, rounded down to a whole percent so the figure never overstates the gap, and how
// much sooner a faster one ships, in words. Shared by the offline
// and the Claude brand agents, so both say the same thing and record the same mention.
import { formatPercent } from '../../commerce/money.js';
import type { CompetitorMention } from './interfaces.js';

function roughly(amount: number): number {
  if (amount <= 0) return amount;
  const step = 10 ** Math.max(0, Math.floor(Math.log10(amount)) - 2);
  return Math.round(amount / step) * step;
}

/** What an anonymous mention calls the competitor, wherever a name would go. */
export const ANONYMOUS_COMPETITOR = 'a competing supplier';

/** How much lower `rivalTotal` is than `ownTotal`, as said without naming anyone: "15%" (rounded down), "under 1%". */
export function competingGap(ownTotal: number, rivalTotal: number): { share: number; words: string } {
  const exact = ownTotal > 0 ? Math.max(0, (ownTotal - rivalTotal) / ownTotal) : 0;
  // A tiny tolerance: 0.15 computed as 0.1499999… is still 15%.
  const whole = Math.floor(exact * 100 + 1e-9) / 100;
  return whole < 0.01 ? { share: exact, words: 'under 1%' } : { share: whole, words: formatPercent(whole, 0) };
}

/**
 * How much sooner a faster competing supplier ships, said without its lead time, which is that supplier's figure as
 * much as its price is: "in half your lead time or less", "weeks sooner than you", "sooner than you".
 */
export function competingSpeed(ownDays: number, rivalDays: number): string {
  if (rivalDays * 2 <= ownDays) return 'in half your lead time or less';
  return ownDays - rivalDays >= 14 ? 'weeks sooner than you' : 'sooner than you';
}

export interface CitedRival {
  code: string;
  name: string;
  total: number;
  leadTimeDays: number | null;
  paymentTerms: string | null;
}

/**
 * The competitor mention a brand message records for the supplier it talks to: the rival's own figures when the
 * workspace allows naming it; otherwise only what the message said — a competing offer some percent lower — so the
 * supplier's memory holds no name and no exact price it was never told.
 */
export function citedCompetitor(
  round: number,
  rival: CitedRival,
  ownTotal: number,
  discloseCompetitors: boolean,
): CompetitorMention {
  if (discloseCompetitors) {
    return {
      round,
      supplierCode: rival.code,
      supplierName: rival.name,
      total: rival.total,
      leadTimeDays: rival.leadTimeDays,
      paymentTerms: rival.paymentTerms,
    };
  }
  const gap = competingGap(ownTotal, rival.total);
  // "Under 1%": half a percent below, the middle of what the words allow. Three significant digits: an estimate reads
  // as one ("about $138,000"), never as a competitor's exact figure.
  const implied = roughly(ownTotal * (1 - (gap.share < 0.01 ? 0.005 : gap.share)));
  return {
    round,
    supplierCode: rival.code,
    supplierName: ANONYMOUS_COMPETITOR,
    total: Math.max(0.01, implied),
    leadTimeDays: null,
    paymentTerms: null,
    anonymous: true,
  };
}

/** Words in supplier names that name nothing in particular ("Co", "Garments", "Premium"). */
const GENERIC_NAME_WORDS = new Set([
  'company',
  'limited',
  'group',
  'trading',
  'industrial',
  'industries',
  'manufacturing',
  'factory',
  'garments',
  'garment',
  'apparel',
  'textile',
  'textiles',
  'premium',
  'supplier',
  'quoted',
  'quoting',
  'international',
  'global',
  'outdoor',
  'outerwear',
  'knitwear',
  'sportswear',
  'accessories',
  'products',
  'clothing',
  'tekstil',
]);

/** The words that identify a supplier in a text: each capitalised word of its name of 5+ letters that is not generic. */
export function distinctiveNameWords(name: string): string[] {
  return [...new Set(name.split(/[^\p{L}]+/u))].filter(
    (word) => word.length >= 5 && /^\p{Lu}/u.test(word) && !GENERIC_NAME_WORDS.has(word.toLowerCase()),
  );
}
