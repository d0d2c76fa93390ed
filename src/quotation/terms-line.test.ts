import { describe, expect, it } from 'vitest';
import { sheetGrid } from '../../test/support/grid-fixture.js';
import { structureSheet } from './structurer.js';

describe('terms written on one pipe-separated line', () => {
  it('reads each term, even when the line is merged across the sheet', () => {
    const line = 'Payment: 30% T/T | Lead time: 45 days | FOB Ningbo | Validity: 30 days';
    const sheet = sheetGrid('Q', [
      [line, line, line, line],
      ['SKU', 'Description', 'Qty', 'Unit Price'],
      ['KF001-FRG-M', 'Fleece jacket', '10', '5'],
    ]);
    expect(structureSheet(sheet).extraction.terms).toMatchObject({
      paymentTerms: '30% T/T',
      leadTimeDays: 45,
      incoterm: 'FOB Ningbo',
      validityDays: 30,
    });
  });
});
