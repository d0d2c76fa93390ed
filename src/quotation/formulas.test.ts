import { describe, expect, it } from 'vitest';
import { sheetGrid } from '../../test/support/grid-fixture.js';
import { evaluateFormula } from './formulas.js';
import { structureSheet } from './structurer.js';

// A1 = 10, B1 = 2.5, A2 = 4, B2 = 3; everything else blank.
const values: Record<string, number> = { '0,0': 10, '0,1': 2.5, '1,0': 4, '1,1': 3 };
const at = (row: number, column: number) => values[`${row},${column}`] ?? null;

describe('evaluateFormula', () => {
  it.each([
    ['=A1*B1', 25],
    ['A2*B2', 12],
    ['=$A$1*$B1', 25],
    ['=SUM(A1:B2)', 19.5],
    ['=SUM(A1,A2)*2', 28],
    ['=A1*B1*(1-10%)', 22.5],
    ['=(A1+A2)/2', 7],
    ['=-A1+B1', -7.5],
  ])('%s = %d', (formula, expected) => {
    expect(evaluateFormula(formula, at)).toBeCloseTo(expected, 9);
  });

  it.each([['=VLOOKUP(A1,B:C,2,0)'], ['=A1*C9'], ['=A1/0'], ['=A1*'], ['=A1&"pcs"']])(
    '%s cannot be worked out',
    (formula) => {
      expect(evaluateFormula(formula, at)).toBeNull();
    },
  );
});

describe('a formula that could not be worked out', () => {
  it('becomes a warning naming its sheet and cell', () => {
    const sheet = {
      ...sheetGrid('Quote', [
        ['SKU', 'Description', 'Qty', 'Unit Price'],
        ['KF001-FRG-M', 'Fleece jacket', '100', ''],
      ]),
      uncomputedFormulas: [{ row: 1, column: 3, formula: 'VLOOKUP(A2,Prices!A:B,2,0)' }],
    };
    expect(structureSheet(sheet).warnings.join(' ')).toContain("1 formula on 'Quote' had no saved value");
    expect(structureSheet(sheet).warnings.join(' ')).toContain('D2 (=VLOOKUP');
  });
});
