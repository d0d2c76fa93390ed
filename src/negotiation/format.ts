// How agents and the thread write SKUs and item lists (seed 002 §12): one format everywhere, so a buyer can search the
// thread for a SKU. Money has its one format in commerce/money.ts, so a number reads the same in an agent's message
// as on the PO.
import { formatMoney } from '../commerce/money.js';

export interface ListedItem {
  sku: string;
  description?: string | null;
  quantity: number;
  unitPrice?: number | null;
}

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
export function formatItemList(items: readonly ListedItem[], withPrice = false, currency = 'USD'): string {
  return items
    .map((item) => {
      const head = `- ${formatSkuRef(item.sku, item.description)} — Qty ${quantityFormat.format(item.quantity)}`;
      const price = item.unitPrice;
      return withPrice && price !== null && price !== undefined ? `${head} @ ${formatMoney(price, currency)}` : head;
    })
    .join('\n');
}
