import { describe, expect, it } from 'vitest';
import { RFQ_LISTED_LINES, formatItemList, formatSkuRef, rfqItemList, rfqLinesCsv } from './format.js';

describe('formatSkuRef', () => {
  it('writes sku(description) with no space before the parenthesis (seed 002 §12)', () => {
    expect(formatSkuRef('MB013-0BS-XL', 'Insulated Winter Jacket')).toBe('MB013-0BS-XL(Insulated Winter Jacket)');
    expect(formatSkuRef(' MB015-RED-M ', ' Fleece Pullover ')).toBe('MB015-RED-M(Fleece Pullover)');
  });

  it('falls back to the bare SKU without a description', () => {
    expect(formatSkuRef('MB015-RED-M', null)).toBe('MB015-RED-M');
    expect(formatSkuRef('MB015-RED-M', '  ')).toBe('MB015-RED-M');
  });
});

describe('formatItemList', () => {
  const items = [
    { sku: 'MB013-0BS-XL', description: 'Insulated Winter Jacket', quantity: 50, unitPrice: 41.5 },
    { sku: 'MB015-RED-M', description: 'Fleece Pullover', quantity: 1200 },
  ];

  it('lists one item a line with its quantity', () => {
    expect(formatItemList(items)).toBe(
      '- MB013-0BS-XL(Insulated Winter Jacket) — Qty 50\n- MB015-RED-M(Fleece Pullover) — Qty 1,200',
    );
  });

  it('adds the unit price when asked and known', () => {
    expect(formatItemList(items, true)).toBe(
      '- MB013-0BS-XL(Insulated Winter Jacket) — Qty 50 @ $41.50\n- MB015-RED-M(Fleece Pullover) — Qty 1,200',
    );
    expect(formatItemList(items.slice(0, 1), true, 'EUR')).toBe(
      '- MB013-0BS-XL(Insulated Winter Jacket) — Qty 50 @ EUR 41.50',
    );
  });

  it('is empty for no items', () => {
    expect(formatItemList([])).toBe('');
  });
});

describe('rfqItemList', () => {
  const line = (index: number) => ({
    sku: `SKU-${index}`,
    description: `Trail Jacket ${index} - Storm Blue - L`,
    quantity: 10,
    unitPrice: index,
  });

  it('lists every line of a quotation up to the limit, with the short product name', () => {
    const lines = Array.from({ length: RFQ_LISTED_LINES }, (_, i) => line(i + 1));
    const list = rfqItemList(lines).split('\n');
    expect(list).toHaveLength(RFQ_LISTED_LINES);
    expect(list[0]).toBe('- SKU-1(Trail Jacket 1) — Qty 10');
  });

  it('lists the top lines by spend of a longer one and says the full list is attached', () => {
    const lines = Array.from({ length: 3000 }, (_, i) => line(i + 1));
    const list = rfqItemList(lines).split('\n');
    expect(list).toHaveLength(11);
    expect(list[0]).toBe('- SKU-3000(Trail Jacket 3000) — Qty 10');
    expect(list.at(-1)).toBe('- and 2,990 more lines: the full list is attached (rfq-lines.csv)');
  });

  it('keeps a listed line short whatever the sheet held', () => {
    const [listed] = rfqItemList([
      { sku: 'X'.repeat(500), description: 'Y'.repeat(500), quantity: 1, unitPrice: 1 },
    ]).split('\n');
    expect(listed?.length).toBeLessThan(130);
  });
});

describe('rfqLinesCsv', () => {
  it('writes every line, quoted, with a formula-like cell made inert', () => {
    const csv = rfqLinesCsv([
      { sku: 'A-1', description: 'Jacket, "Storm"', quantity: 5 },
      { sku: '=HYPERLINK("http://x")', description: null, quantity: 1 },
    ]);
    expect(csv.split('\r\n')).toEqual([
      'SKU,Description,Quantity',
      '"A-1","Jacket, ""Storm""","5"',
      '"\'=HYPERLINK(""http://x"")","","1"',
      '',
    ]);
  });
});
