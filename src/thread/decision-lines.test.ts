// The recommendation's lines × suppliers table: every line offered is a row, awarded or not.
import { describe, expect, it } from 'vitest';
import type { DecisionNumbers } from '../decision/decide.js';
import { lineRows } from './decision.js';

const awardOf = (lines: { sku: string; quantity: number; lineTotal: number }[]) =>
  ({ award: [{ name: 'Alpine', lines }] }) as unknown as DecisionNumbers;

describe('lineRows', () => {
  it('lists a line nobody was awarded, with no award, beside the awarded ones (largest first)', () => {
    const numbers = awardOf([{ sku: 'A', quantity: 10, lineTotal: 100 }]);
    const offers = [
      {
        name: 'Alpine',
        lines: [
          { sku: 'A', quantity: 10, unitPrice: 10 },
          { sku: 'B', quantity: 50, unitPrice: 4 },
        ],
      },
      { name: 'Borealis', lines: [{ sku: 'B', quantity: 50, unitPrice: 3 }] },
    ];
    const table = lineRows(numbers, offers);
    expect(table.totalLines).toBe(2);
    expect(table.rows.map((row) => [row.sku, row.quantity, row.unitPrices, row.awarded])).toEqual([
      ['B', 50, [4, 3], []],
      ['A', 10, [10, null], [{ supplierName: 'Alpine', share: 1 }]],
    ]);
  });
});
