// What one sample style produces, and the helpers its builders share.
import type { Workbook } from 'exceljs';
import type { Rng } from '../../src/commerce/rng.js';
import type { MessId } from './messes.js';
import { fromCents } from './money.js';
import {
  pickPriceCents,
  pickQuantity,
  pickStyles,
  pickVariants,
  type QuoteCurrency,
  type SampleCatalog,
  type Variant,
} from './sample-catalog.js';
import type { DocumentKind, TruthCharge, TruthItem, TruthTerms } from './truth.js';

export interface SampleContext {
  rng: Rng;
  catalog: SampleCatalog;
}

export interface BuiltSample {
  workbook: Workbook;
  /** One sentence: what is messy, and any rule the truth applies. */
  description: string;
  supplier: string | null;
  terms: TruthTerms;
  items: TruthItem[];
  charges: TruthCharge[];
  statedTotal: number | null;
  /** 'quotation' unless the style is an invoice, an RFQ or another kind a buyer may share by mistake. */
  documentKind?: DocumentKind;
}

export interface SampleStyle {
  /** kebab-case; the file becomes `NN-name.xlsx`. */
  name: string;
  /**
   * The file's number when it is not the style's place in SAMPLE_STYLES: a style written on one branch while another
   * takes the number before it keeps its own, so merging renames nothing.
   */
  number?: number;
  messes: readonly MessId[];
  build(context: SampleContext): BuiltSample;
}

export const NO_TERMS: TruthTerms = {
  paymentTerms: null,
  leadTimeDays: null,
  currency: null,
  incoterm: null,
  moq: null,
  validityDays: null,
};

type ItemFields = Pick<TruthItem, 'sheet' | 'row' | 'quantity' | 'unitPrice'> & Partial<TruthItem>;

export function truthItem(fields: ItemFields): TruthItem {
  return {
    sheet: fields.sheet,
    row: fields.row,
    sku: fields.sku ?? null,
    rawSku: fields.rawSku ?? null,
    description: fields.description ?? null,
    color: fields.color ?? null,
    size: fields.size ?? null,
    quantity: fields.quantity,
    unitPrice: fields.unitPrice,
    tiers: fields.tiers ?? [],
  };
}

/** The truth of a line that quotes a catalog variant as it is: its SKU, name, colour and size, at one price. */
export function variantTruth(
  sheet: string,
  row: number,
  line: Pick<PlannedLine, 'variant' | 'quantity' | 'unitCents'>,
) {
  const { variant, quantity, unitCents } = line;
  return truthItem({
    sheet,
    row,
    sku: variant.sku,
    rawSku: variant.sku,
    description: variant.name,
    color: variant.color,
    size: variant.size,
    quantity,
    unitPrice: fromCents(unitCents),
  });
}

export const charge = (description: string, cents: number): TruthCharge => ({ description, amount: fromCents(cents) });

/** A product line before it is written: which product, how many, at what gross unit price. */
export interface PlannedLine {
  variant: Variant;
  quantity: number;
  unitCents: number;
}

export interface PlanOptions {
  categories: readonly string[];
  styles: number;
  variantsPerStyle: readonly [number, number];
  currency?: QuoteCurrency;
  minQuantity?: number;
  maxQuantity?: number;
}

/** Lines style by style, one price per style as suppliers quote it, in catalog order. */
export function planLines(context: SampleContext, options: PlanOptions): PlannedLine[] {
  const { rng, catalog } = context;
  return pickStyles(rng, catalog, options.categories, options.styles).flatMap((style) => {
    const unitCents = pickPriceCents(rng, style.category, options.currency);
    const variants = pickVariants(rng, style, rng.int(...options.variantsPerStyle));
    return variants.map((variant) => ({
      variant,
      quantity: pickQuantity(rng, options.minQuantity, options.maxQuantity),
      unitCents,
    }));
  });
}
