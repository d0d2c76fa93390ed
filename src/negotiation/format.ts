// How agents and the thread write SKUs, item lists and money (seed 002 §12): one format everywhere, so a buyer can
// search the thread for a SKU and a number reads the same in an agent's message as on the PO.

export interface ListedItem {
  sku: string;
  description?: string | null;
  quantity: number;
  unitPrice?: number | null;
}

const USD = 'USD';

const amountFormat = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const quantityFormat = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

/** `MB013-0BS-XL(Insulated Winter Jacket)`: no space before the parenthesis; the bare SKU when there is no name. */
export function formatSkuRef(sku: string, description: string | null | undefined): string {
  const name = description?.trim() ?? '';
  return name === '' ? sku.trim() : `${sku.trim()}(${name})`;
}

/**
 * One line per item, `- SKU(Description) — Qty 1,200`, with ` @ $12.50` when `withPrice` is set and the item has a
 * price. Agents paste this into messages as is.
 */
export function formatItemList(items: readonly ListedItem[], withPrice = false, currency: string = USD): string {
  return items
    .map((item) => {
      const head = `- ${formatSkuRef(item.sku, item.description)} — Qty ${quantityFormat.format(item.quantity)}`;
      const price = item.unitPrice;
      return withPrice && price !== null && price !== undefined ? `${head} @ ${formatMoney(price, currency)}` : head;
    })
    .join('\n');
}

/**
 * en-US grouping for every currency so numbers compare at a glance across suppliers: `$41,650.00` for US dollars,
 * the ISO code in front for anything else (`EUR 1,234.50`), because `$` alone is ambiguous (HK$, NT$, …).
 */
export function formatMoney(amount: number, currency: string = USD): string {
  const code = currency.trim().toUpperCase();
  const cents = toCents(amount);
  // Rounding -0.004 gives -0: a minus sign on zero reads as an error.
  const sign = cents < 0 ? '-' : '';
  const digits = amountFormat.format(Math.abs(cents) / 100);
  return code === USD ? `${sign}$${digits}` : `${sign}${code} ${digits}`;
}

/**
 * Integer cents, half away from zero, as a person rounds the amount as written: 10.005 → 1001, though the float
 * 10.005 is 10.00499999… and 10.005 × 100 is 1000.4999… Shifting the decimal point in the number's shortest text form
 * avoids that binary error.
 */
export function toCents(amount: number): number {
  const magnitude = Math.abs(amount);
  const text = String(magnitude);
  const shifted = text.includes('e') ? magnitude * 100 : Number(`${text}e2`);
  const cents = Math.round(shifted);
  return amount < 0 && cents !== 0 ? -cents : cents;
}

/** A ratio as a whole percentage by default: 0.256 → "26%". */
export function formatPercent(ratio: number, fractionDigits = 0): string {
  return `${(ratio * 100).toFixed(fractionDigits)}%`;
}
