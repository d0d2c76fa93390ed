// A corpus of messy supplier quotations with answer keys, for measuring the parser: every file is a style seen in
// real supplier mail, every product a real catalog row, and every run writes the same bytes.
import type { CatalogProduct } from '../../src/catalog/products-csv.js';
import { createRng, fnv1a } from '../../src/commerce/rng.js';
import type { MessId } from './messes.js';
import { indexCatalog } from './sample-catalog.js';
import type { SampleStyle } from './sample.js';
import { bilingualChinese } from './styles/bilingual-chinese.js';
import { cleanBaseline } from './styles/clean-baseline.js';
import { euroDiscount } from './styles/euro-discount.js';
import { formulaTotals } from './styles/formula-totals.js';
import { hostileHidden } from './styles/hostile-hidden.js';
import { largeQuotation } from './styles/large-quotation.js';
import { multiSheet } from './styles/multi-sheet.js';
import { noSkuCharges } from './styles/no-sku-charges.js';
import { ocrSkus } from './styles/ocr-skus.js';
import { priceBreaks } from './styles/price-breaks.js';
import { sizeRunMatrix } from './styles/size-run-matrix.js';
import { textNumbers } from './styles/text-numbers.js';
import { titleBlock } from './styles/title-block.js';
import { indianGstRefHsn } from './styles/indian-gst-ref-hsn.js';
import { mergedPriceClosingDiscount } from './styles/merged-price-closing-discount.js';
import { germanMwst } from './styles/german-mwst.js';
import { spanishIva } from './styles/spanish-iva.js';
import { moqTierColumns } from './styles/moq-tier-columns.js';
import { tierRows } from './styles/tier-rows.js';
import { multiRowItems } from './styles/multi-row-items.js';
import { combinedSkuVietnamese } from './styles/combined-sku-vietnamese.js';
import { uncachedFormulasChineseTerms } from './styles/uncached-formulas-chinese-terms.js';
import { invoiceGst } from './styles/invoice-gst.js';
import { rfqBlankPrices } from './styles/rfq-blank-prices.js';
import { targetPriceColumn } from './styles/target-price-column.js';
import { supplierComparison } from './styles/supplier-comparison.js';
import { requirementsList } from './styles/requirements-list.js';
import { dimensionSubTables } from './styles/dimension-sub-tables.js';
import { quotationTruthSchema, type QuotationTruth } from './truth.js';
import { workbookToBuffer } from './workbook.js';

export const DEFAULT_CORPUS_SEED = 0x5a4d91e;

/** In file-number order; append new styles at the end so existing file names keep their numbers. */
export const SAMPLE_STYLES: readonly SampleStyle[] = [
  cleanBaseline,
  titleBlock,
  formulaTotals,
  textNumbers,
  euroDiscount,
  priceBreaks,
  sizeRunMatrix,
  multiSheet,
  bilingualChinese,
  ocrSkus,
  noSkuCharges,
  hostileHidden,
  largeQuotation,
  indianGstRefHsn,
  mergedPriceClosingDiscount,
  germanMwst,
  spanishIva,
  moqTierColumns,
  tierRows,
  multiRowItems,
  combinedSkuVietnamese,
  uncachedFormulasChineseTerms,
  invoiceGst,
  rfqBlankPrices,
  targetPriceColumn,
  supplierComparison,
  requirementsList,
  dimensionSubTables,
];

/** The file name's number: the style's own, or its place in the list. */
export const sampleNumber = (style: SampleStyle, index: number) => style.number ?? index + 1;

export interface SampleFile {
  /** `NN-name.xlsx` */
  fileName: string;
  /** `NN-name.truth.json` */
  truthFileName: string;
  messes: readonly MessId[];
  xlsx: Buffer;
  truth: QuotationTruth;
}

export interface GenerateCorpusOptions {
  catalog: readonly CatalogProduct[];
  seed?: number;
}

/** Each style draws from its own stream, so editing one style leaves the others' files unchanged. */
const hashName = fnv1a;

export async function generateSampleCorpus(options: GenerateCorpusOptions): Promise<SampleFile[]> {
  const { seed = DEFAULT_CORPUS_SEED } = options;
  const catalog = indexCatalog(options.catalog);
  const files: SampleFile[] = [];

  for (const [index, style] of SAMPLE_STYLES.entries()) {
    const base = `${String(sampleNumber(style, index)).padStart(2, '0')}-${style.name}`;
    const built = style.build({ rng: createRng((seed ^ hashName(style.name)) >>> 0), catalog });
    // Parsing checks the builder's work and fixes the key order the truth file is written in.
    const truth = quotationTruthSchema.parse({
      file: `${base}.xlsx`,
      documentKind: built.documentKind ?? 'quotation',
      description: built.description,
      messes: [...style.messes],
      supplier: { name: built.supplier },
      terms: built.terms,
      items: built.items,
      charges: built.charges,
      statedTotal: built.statedTotal,
    } satisfies QuotationTruth);
    files.push({
      fileName: `${base}.xlsx`,
      truthFileName: `${base}.truth.json`,
      messes: style.messes,
      xlsx: await workbookToBuffer(built.workbook),
      truth,
    });
  }
  return files;
}
