// What `npm run demo -- --fresh` brings to a brand-new Slack workspace: a team id nobody has used (nothing seeded for
// it) and the brand's own catalog as a CSV to import with `/parley catalog`. The catalog is a few hundred products
// cut from the generated one — every style the demo's quotation names, and some it does not — under the new brand's
// name, so the quotation matches only because the brand imported it.
import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { CATALOG_CSV, readCatalogCsv } from '../../src/catalog/products-csv.js';
import { parseSku } from '../../src/catalog/sku.js';
import { toCatalogCsv } from '../catalog/catalog-generator.js';

export interface FreshTeam {
  id: string;
  name: string;
}

/** A Slack-shaped team id from the clock (`T0` and base 36), new on every run. */
export function freshTeam(now = Date.now()): FreshTeam {
  return { id: `T0${now.toString(36).toUpperCase()}`, name: 'Northwind Trail Co.' };
}

const truthSchema = z.object({ items: z.array(z.object({ sku: z.string().nullable().optional() })) });

/** The SKUs a bundled sample's truth file lists (empty when the quotation has no truth file beside it). */
export async function skusOfSample(xlsxPath: string): Promise<string[]> {
  const truthPath = xlsxPath.replace(/\.xlsx$/i, '.truth.json');
  try {
    const truth = truthSchema.parse(JSON.parse(await readFile(truthPath, 'utf8')));
    return truth.items.flatMap((item) => (item.sku ? [item.sku] : []));
  } catch {
    return [];
  }
}

/**
 * The brand's catalog CSV: every product of the styles `cover` names, plus `otherStyles` more styles, renamed to
 * `brand`. Columns as the generated catalog's (brand, sku, name, color, size, category).
 */
export async function brandCatalogCsv(options: { brand: string; cover: string[]; otherStyles?: number }) {
  const products = await readCatalogCsv(CATALOG_CSV);
  const wanted = new Set(options.cover.flatMap((sku) => parseSku(sku)?.skuPrefix ?? []));
  const others = new Set<string>();
  for (const product of products) {
    const style = parseSku(product.sku)?.skuPrefix;
    if (style === undefined || wanted.has(style) || others.size >= (options.otherStyles ?? 20)) continue;
    others.add(style);
  }
  const rows = products
    .filter((product) => {
      const style = parseSku(product.sku)?.skuPrefix;
      return style !== undefined && (wanted.has(style) || others.has(style));
    })
    .map((product) => ({ ...product, brand: options.brand }));
  return { csv: toCatalogCsv(rows), products: rows.length, styles: wanted.size + others.size };
}
