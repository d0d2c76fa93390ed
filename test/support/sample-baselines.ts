// The bundled samples as the negotiation sees them: each sample's truth (what a careful reader gets from the sheet:
// lines, quantities, prices, the catalog match, the terms it states or leaves out) handed to baselineFromQuotation
// the way a reviewed quotation is, without parsing the workbook — so a test can play every sample over many seeds.
import { readdirSync, readFileSync } from 'node:fs';
import { quotationTruthSchema } from '../../dev/sample-corpus/truth.js';
import { baselineFromQuotation, type BaselineFromQuotation } from '../../src/negotiation/baseline.js';

const SAMPLES = new URL('../../data/samples/', import.meta.url);

export interface SampleBaseline extends BaselineFromQuotation {
  /** "02-title-block-header-row-9". */
  name: string;
}

/** The samples whose file name starts with one of `prefixes` ("01" … "13"), in file order. */
export function sampleBaselines(prefixes: readonly string[]): SampleBaseline[] {
  return readdirSync(SAMPLES)
    .filter((file) => file.endsWith('.truth.json') && prefixes.some((prefix) => file.startsWith(prefix)))
    .sort()
    .map((file) => {
      const truth = quotationTruthSchema.parse(JSON.parse(readFileSync(new URL(file, SAMPLES), 'utf8')));
      const built = baselineFromQuotation(
        {
          supplier: { name: truth.supplier.name },
          terms: {
            paymentTerms: truth.terms.paymentTerms,
            currency: truth.terms.currency,
            leadTimeDays: truth.terms.leadTimeDays,
            incoterm: truth.terms.incoterm,
            moq: truth.terms.moq,
          },
          notes: [],
          charges: truth.charges.map(({ description, amount }) => ({ description, amount })),
          items: truth.items.map((item) => ({
            sheet: item.sheet,
            row: item.row,
            rawSku: item.rawSku,
            description: item.description,
            quantity: item.quantity,
            unitPrice: item.unitPrice,
            tiers: item.tiers,
            notes: null,
            match: { sku: item.sku },
          })),
        },
        new Map(),
      );
      return { ...built, name: file.replace(/\.truth\.json$/, '') };
    });
}
