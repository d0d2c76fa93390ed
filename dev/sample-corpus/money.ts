// Money as integer minor units until it is written, so the amounts in a sheet and in its truth agree to the cent. The
// conversions are Parley's own (src/commerce/money.ts): a sample's truth rounds the way the app reads it.
import { fromCents, toCents } from '../../src/commerce/money.js';

export { fromCents, toCents };

/** A discount in tenths of a percent (50 = 5%, 75 = 7.5%): integer arithmetic keeps line amounts exact. */
export type Permille = number;

/** Net unit price after a discount, rounded to 4 dp as the truth records it. */
export function netUnitPrice(unitCents: number, discount: Permille = 0): number {
  return Math.round((unitCents * (1000 - discount)) / 10) / 10_000;
}

/** The line amount a supplier's sheet shows: quantity × net price, rounded to the cent once. */
export function lineAmountCents(quantity: number, unitCents: number, discount: Permille = 0): number {
  return Math.round((quantity * unitCents * (1000 - discount)) / 1000);
}

export const sum = (values: readonly number[]): number => values.reduce((total, value) => total + value, 0);

interface NumberStyle {
  decimals: number;
  thousands: string;
  decimal: string;
}

const EN: NumberStyle = { decimals: 2, thousands: ',', decimal: '.' };
const EU: NumberStyle = { decimals: 2, thousands: '.', decimal: ',' };

export function formatNumber(value: number, style: NumberStyle = EN): string {
  const negative = value < 0;
  const [whole = '0', fraction] = Math.abs(value).toFixed(style.decimals).split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, style.thousands);
  return `${negative ? '-' : ''}${grouped}${fraction === undefined ? '' : style.decimal + fraction}`;
}

/** `US$ 1,234.00`, `$12.50`, `¥85.00`: the prefix is whatever the supplier typed. */
export const formatPrefixed = (prefix: string, cents: number): string => `${prefix}${formatNumber(fromCents(cents))}`;

/** `1.234,50 €`: continental European style. */
export const formatEuro = (cents: number): string => `${formatNumber(fromCents(cents), EU)} €`;

/** `1,200 pcs` or, European, `1.200 un.` */
export function formatQuantity(quantity: number, unit: string, european = false): string {
  return `${formatNumber(quantity, { ...(european ? EU : EN), decimals: 0 })} ${unit}`;
}

/** A discount as a sheet prints it: `5%`, `7,5%` (European). */
export function formatDiscount(discount: Permille, european = false): string {
  const text = String(discount / 10);
  return `${european ? text.replace('.', ',') : text}%`;
}

/**
 * A line's price at each quantity break (the base price times the break's factor, to 5 cents) and the one its ordered
 * quantity buys at: the highest break it reaches.
 */
export function breakPriceCents(
  breaks: readonly { minQty: number; factor: number }[],
  unitCents: number,
  quantity: number,
): { tierCents: number[]; priceCents: number } {
  const tierCents = breaks.map((tier) => Math.round((unitCents * tier.factor) / 5) * 5);
  const applicable = breaks.reduce((found, tier, t) => (quantity >= tier.minQty ? t : found), 0);
  return { tierCents, priceCents: tierCents[applicable] ?? unitCents };
}
