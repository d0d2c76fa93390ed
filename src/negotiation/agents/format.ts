// What the agents' messages need beyond the thread-wide formats (SKU refs and item lists in ../format.ts, money,
// percentages and payment terms in commerce/, which they re-use so a number reads the same in a message as on the
// PO): short product names, word counts, message skeletons.
import { formatPercent } from '../../commerce/money.js';
import { formatSkuRef, productName } from '../format.js';
import type { BaselineLine } from '../types.js';

export { formatItemList, formatSkuRef, productName } from '../format.js';

/** A SKU as cited in a sentence: the short product name. */
export function skuRef(line: Pick<BaselineLine, 'sku' | 'description'>): string {
  return formatSkuRef(line.sku, productName(line.description));
}

/** Messages stay short enough to read in a thread at a glance (RFQs excepted: they list every line). */
export const MAX_MESSAGE_CHARS = 700;

export function wordCount(text: string): number {
  return text.split(/\s+/).filter((word) => word.length > 0).length;
}

/** A sentence with its numbers masked, to tell "the same sentence again" from "a new sentence" across rounds. */
export function skeleton(text: string): string {
  return text
    .replace(/[A-Z0-9][A-Z0-9-]*\([^)]*\)/g, '@')
    .replace(/(?:[A-Z]{3} |[$€£¥])?\d[\d,.]*%?/g, '#')
    .trim();
}

/**
 * A line's share of an order in words, never "0%": whole percent from 1% up ("34%"), one decimal below ("0.4%"), and
 * "under 0.1%" for a line lost in a 3,000-line order.
 */
export function formatShare(share: number): string {
  if (!(share > 0)) return '0%';
  if (share >= 0.0095) return formatPercent(share, 0);
  if (share >= 0.00095) return formatPercent(share, 1);
  return 'under 0.1%';
}
