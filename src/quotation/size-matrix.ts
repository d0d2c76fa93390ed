// Size runs and price breaks: the two ways one sheet row stands for more than one price or quantity.
import type { PriceTier } from './types.js';

/**
 * The SKU of one size of a size-run row, assembled from what the row wrote: style + colour + size joined with "-"
 * ("KF001" + "FRG" + "M" → "KF001-FRG-M"). A part the style code already carries ("KF001-FRG") is not repeated.
 */
export function assembleSku(style: string, colour: string | null, size: string): string {
  const written = style.trim();
  const segments = new Set(written.toUpperCase().split(/[-_/\s.]+/));
  const parts = [written];
  const colourText = colour?.trim() ?? '';
  if (colourText !== '' && !segments.has(colourText.toUpperCase())) parts.push(colourText);
  const sizeText = size.trim();
  if (sizeText !== '' && !segments.has(sizeText.toUpperCase())) parts.push(sizeText);
  return parts.join('-');
}

export interface TierChoice {
  unitPrice: number;
  /** The quantity is under the smallest break (or unknown), so the smallest break's price was taken. */
  belowSmallest: boolean;
}

/**
 * The price break that applies at a quantity: the largest minQty not above it. Without a quantity, or under the
 * smallest break, the smallest break's price is the one on offer for any order the supplier accepts.
 */
export function tierPriceAt(tiers: readonly PriceTier[], quantity: number | null): TierChoice | null {
  const ascending = [...tiers].sort((a, b) => a.minQty - b.minQty);
  const smallest = ascending[0];
  if (!smallest) return null;
  if (quantity === null || quantity < smallest.minQty) return { unitPrice: smallest.unitPrice, belowSmallest: true };
  let chosen = smallest;
  for (const tier of ascending) if (tier.minQty <= quantity) chosen = tier;
  return { unitPrice: chosen.unitPrice, belowSmallest: false };
}
