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

/** "Sawtooth Down Parka - Storm Blue - L" → "Sawtooth Down Parka". In running text the colour and size are already in
 * the SKU, and the full description would blow the message's word budget. */
export function productName(description: string): string {
  const head = description.split(/\s+[-–—|]\s+/)[0]?.trim() ?? '';
  return head.length > 0 ? head : description.trim();
}

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

/**
 * A request for quotes lists every line up to this many. A longer quotation's request lists its largest lines by
 * spend and says the full list is attached: the thread uploads it as RFQ_LINES_FILE (a 3,000-line request
 * used to stop at "…" after about 60 lines, with no way to see the rest).
 */
export const RFQ_LISTED_LINES = 20;
export const RFQ_TOP_LINES = 10;
export const RFQ_LINES_FILE = 'rfq-lines.csv';
const RFQ_SKU_CHARS = 40;
const RFQ_DESCRIPTION_CHARS = 60;

function cut(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1).trimEnd()}…`;
}

/** The item list of a request for quotes: every line, or the top lines by spend and where the full list is. */
export function rfqItemList(lines: readonly (ListedItem & { unitPrice: number })[]): string {
  // A listed line stays short whatever the sheet held, so 20 of them fit the action protocol's 4,000 characters.
  const short = (item: ListedItem): ListedItem => ({
    ...item,
    sku: cut(item.sku, RFQ_SKU_CHARS),
    description: item.description ? cut(productName(item.description), RFQ_DESCRIPTION_CHARS) : item.description,
  });
  if (lines.length <= RFQ_LISTED_LINES) return formatItemList(lines.map(short));
  const top = [...lines]
    .sort((a, b) => b.quantity * b.unitPrice - a.quantity * a.unitPrice)
    .slice(0, RFQ_TOP_LINES)
    .map(short);
  const rest = lines.length - top.length;
  return `${formatItemList(top)}\n- and ${rest.toLocaleString('en-US')} more lines: the full list is attached (${RFQ_LINES_FILE})`;
}

/**
 * The full list of a request for quotes as CSV (SKU, description, quantity; no prices: the request goes to competing
 * suppliers), with an empty Unit price column for a supplier to fill in when `priceColumn`. Cells are quoted, and
 * one that a spreadsheet would run as a formula starts with an apostrophe.
 */
export function rfqLinesCsv(lines: readonly ListedItem[], options: { priceColumn?: boolean } = {}): string {
  const cell = (value: string) => {
    const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
    return `"${safe.replace(/"/g, '""')}"`;
  };
  const price = options.priceColumn === true ? [''] : [];
  const rows = lines.map((line) =>
    [line.sku, line.description ?? '', String(line.quantity), ...price].map(cell).join(','),
  );
  const header = ['SKU', 'Description', 'Quantity', ...(price.length > 0 ? ['Unit price'] : [])];
  return `${header.join(',')}\r\n${rows.join('\r\n')}\r\n`;
}
