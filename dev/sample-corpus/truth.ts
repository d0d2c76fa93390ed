// The answer key for one sample quotation: what a careful human buyer reads off the sheet. The parser is scored
// against it, so every rule that could go either way is fixed here and repeated in each file's `description`.
import { z } from 'zod';
import { SKU_PATTERN } from '../../src/catalog/sku.js';
import { MESS_IDS } from './messes.js';

/** Four decimal places is as fine as any supplier quotes a net price; more would be float noise. */
const hasAtMostDecimals = (places: number) => (value: number) =>
  Math.abs(value * 10 ** places - Math.round(value * 10 ** places)) < 1e-6;

const money = (places: number) =>
  z.number().nonnegative().refine(hasAtMostDecimals(places), `must have at most ${places} decimal places`);

const text = z.string().min(1);

export const truthTierSchema = z.strictObject({
  minQty: z.number().int().positive(),
  unitPrice: money(4),
});

export const truthItemSchema = z
  .strictObject({
    sheet: text,
    /** 1-based sheet row; every size of one size-run matrix row shares it. */
    row: z.number().int().positive(),
    /** The catalog SKU the line really is; null when the product is not in the catalog (a custom label, say). */
    sku: z.string().regex(SKU_PATTERN).nullable(),
    /**
     * Exactly the cell text, spaces and OCR slips included; for a size-run matrix the style cell; for a "code + name"
     * cell the code at its start. Null: no code.
     */
    rawSku: text.nullable(),
    /** The description cell as written. */
    description: text.nullable(),
    /** A dedicated colour cell as written; null when there is none, even if the description names the colour. */
    color: text.nullable(),
    /** A dedicated size cell, or the size-run column header, as written; null when there is none. */
    size: text.nullable(),
    quantity: z.number().int().positive(),
    /**
     * Net of an explicit per-line discount column or a closing discount under the table, and the tier price that
     * applies at `quantity`; null on a request for quotation, whose price cells are still blank.
     */
    unitPrice: money(4).nullable(),
    /** Quantity price breaks, ascending by minQty; empty when the sheet has none. */
    tiers: z.array(truthTierSchema),
  })
  .refine((item) => item.rawSku !== null || item.description !== null, 'a line has a code or a description')
  .refine(
    (item) => item.tiers.every((tier, i) => i === 0 || (item.tiers[i - 1]?.minQty ?? 0) < tier.minQty),
    'tiers must ascend by minQty',
  );

export const truthChargeSchema = z.strictObject({
  description: text,
  amount: money(2),
});

export const truthTermsSchema = z.strictObject({
  paymentTerms: text.nullable(),
  leadTimeDays: z.number().int().positive().nullable(),
  currency: z
    .string()
    .regex(/^[A-Z]{3}$/, 'must be an ISO 4217 code')
    .nullable(),
  incoterm: text.nullable(),
  moq: z.number().int().positive().nullable(),
  validityDays: z.number().int().positive().nullable(),
});

/** What the workbook is (src/quotation/document-kind.ts): most samples are quotations, a few are not. */
export const DOCUMENT_KINDS = [
  'quotation',
  'price_list',
  'rfq',
  'purchase_order',
  'invoice',
  'delivery_note',
  'comparison',
  'requirements',
] as const;

export const quotationTruthSchema = z.strictObject({
  file: z.string().regex(/^\d{2}-[a-z0-9-]+\.xlsx$/, 'must look like NN-name.xlsx'),
  documentKind: z.enum(DOCUMENT_KINDS),
  /** What is messy about the file and which judgement calls the truth makes, in one sentence. */
  description: text,
  /** Which of the catalogued messes (see MESSES) the file exercises. */
  messes: z.array(z.literal(MESS_IDS)).min(1),
  supplier: z.strictObject({ name: text.nullable() }),
  terms: truthTermsSchema,
  /** In sheet order: sheet by sheet, then row by row, then left to right across a size run. */
  items: z.array(truthItemSchema),
  /** Money on the quote that buys no product: freight, samples, tooling, packaging. */
  charges: z.array(truthChargeSchema),
  /** The grand total the quotation states (goods plus listed charges), or null when it states none. */
  statedTotal: money(2).nullable(),
});

export type QuotationTruth = z.infer<typeof quotationTruthSchema>;
export type TruthItem = z.infer<typeof truthItemSchema>;
export type TruthCharge = z.infer<typeof truthChargeSchema>;
export type TruthTerms = z.infer<typeof truthTermsSchema>;
export type TruthTier = z.infer<typeof truthTierSchema>;
export type DocumentKind = (typeof DOCUMENT_KINDS)[number];

/**
 * Pretty JSON with one item or charge per line: a 3,000-line truth stays small and diffs line by line.
 * JSON.parse gives back exactly `truth`.
 */
export function formatTruthJson(truth: QuotationTruth): string {
  const fields = Object.entries(truth).map(([key, value]) => {
    const name = JSON.stringify(key);
    if (Array.isArray(value) && value.length > 0 && (key === 'items' || key === 'charges')) {
      const rows = value.map((entry) => `    ${JSON.stringify(entry)}`);
      return `  ${name}: [\n${rows.join(',\n')}\n  ]`;
    }
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
      return `  ${name}: ${JSON.stringify(value, null, 2).replaceAll('\n', '\n  ')}`;
    }
    return `  ${name}: ${JSON.stringify(value)}`;
  });
  return `{\n${fields.join(',\n')}\n}\n`;
}
