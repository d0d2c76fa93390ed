// The ways real supplier quotations are messy, numbered so every sample file can say which ones it exercises and a
// test can prove the corpus covers them all.

export const MESS_IDS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16] as const;

export type MessId = (typeof MESS_IDS)[number];

export const MESSES: Record<MessId, string> = {
  1: 'clean-ish baseline: header on row 1, SKU / Description / Qty / Unit Price / Amount',
  2: 'title block in merged cells, header row further down, blank rows and a blank column inside the table',
  3: 'Subtotal / Total rows and line amounts as formulas (some shared) with cached results',
  4: 'numbers stored as text: currency signs, thousands separators, decimal commas, "pcs" suffixes',
  5: 'discounts: an explicit per-line discount column, or a discount mentioned only in a note (not applied)',
  6: 'quantity price breaks in columns, the line price being the tier that applies at its quantity',
  7: 'apparel size-run matrix: one row per style and colour, one quantity column per size',
  8: 'several item sheets plus a Terms sheet without an item table',
  9: 'bilingual Chinese / English header cells',
  10: 'SKUs with OCR slips: O/0, I/l/1, missing dashes, lowercase, extra spaces',
  11: 'lines naming a product by description, colour and size without any SKU',
  12: 'freight, sample, tooling and packaging charges that are not products',
  13: 'terms written in a notes block or in header cells: validity, MOQ, payment, lead time, incoterm, currency',
  14: 'hostile text: a prompt-injection note and a HYPERLINK formula stored as a plain string',
  15: 'items not in the catalog (custom labels, patches) under made-up codes',
  16: 'a hidden column and a hidden row, both ignored as a human reading the sheet would',
};
