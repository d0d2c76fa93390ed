// The real catalog seen the way a supplier sees it: styles, each in some colours and sizes, priced per style.
import { parseSku } from '../../src/catalog/sku.js';
import type { CatalogProduct } from '../../src/catalog/products-csv.js';
import type { Rng } from '../../src/commerce/rng.js';

export interface Variant {
  sku: string;
  name: string;
  category: string;
  color: string;
  colorCode: string;
  size: string;
  sizeCode: string;
}

export interface Style {
  /** The SKU prefix, e.g. `MJ014`. */
  code: string;
  name: string;
  category: string;
  /** Colours in catalog order, each with its variants in size order. */
  colors: { name: string; code: string; variants: Variant[] }[];
}

export interface SampleCatalog {
  styles: readonly Style[];
  products: readonly Variant[];
  has(sku: string): boolean;
  /** True when name + colour + size point at one product only, so a line without a SKU can still be matched. */
  isUniqueByText(variant: Variant): boolean;
  stylesIn(categories: readonly string[]): Style[];
}

const textKey = (variant: Pick<Variant, 'name' | 'color' | 'size'>) =>
  `${variant.name}|${variant.color}|${variant.size}`.toLowerCase();

export function indexCatalog(products: readonly CatalogProduct[]): SampleCatalog {
  const styles = new Map<string, Style>();
  const variants: Variant[] = [];
  const textCounts = new Map<string, number>();

  for (const product of products) {
    const parts = parseSku(product.sku);
    if (!parts) throw new Error(`catalog SKU ${product.sku} does not parse`);
    const variant: Variant = {
      sku: product.sku,
      name: product.name,
      category: product.category,
      color: product.color,
      colorCode: parts.colorCode,
      size: product.size,
      sizeCode: parts.sizeCode,
    };
    variants.push(variant);
    textCounts.set(textKey(variant), (textCounts.get(textKey(variant)) ?? 0) + 1);

    let style = styles.get(parts.skuPrefix);
    if (!style) {
      style = { code: parts.skuPrefix, name: product.name, category: product.category, colors: [] };
      styles.set(parts.skuPrefix, style);
    }
    let color = style.colors.find((c) => c.code === parts.colorCode);
    if (!color) {
      color = { name: product.color, code: parts.colorCode, variants: [] };
      style.colors.push(color);
    }
    color.variants.push(variant);
  }

  const skus = new Set(variants.map((variant) => variant.sku));
  const styleList = [...styles.values()];
  return {
    styles: styleList,
    products: variants,
    has: (sku) => skus.has(sku),
    isUniqueByText: (variant) => textCounts.get(textKey(variant)) === 1,
    stylesIn: (categories) => styleList.filter((style) => categories.includes(style.category)),
  };
}

export const APPAREL_CATEGORIES = [
  'Coats & Shells',
  'Jackets',
  'Fleece',
  'Base Layers',
  'Shirts',
  'Tees',
  'Vests',
] as const;
export const ACCESSORY_CATEGORIES = ['Headwear', 'Gloves', 'Packs'] as const;

/** FOB prices in US cents an outdoor brand would be quoted per category: a shell costs more than a beanie. */
const USD_PRICE_RANGE: Record<string, readonly [number, number]> = {
  'Coats & Shells': [4500, 9000],
  Jackets: [2800, 7500],
  Fleece: [1400, 3800],
  'Base Layers': [800, 2200],
  Pants: [1400, 3500],
  Shirts: [900, 2400],
  Tees: [400, 1200],
  Vests: [1500, 4000],
  Headwear: [250, 900],
  Gloves: [350, 1400],
  Packs: [1200, 4500],
  Footwear: [2200, 6000],
};

export type QuoteCurrency = 'USD' | 'EUR' | 'CNY';

/** Rough exchange rates; the rounding step is what a supplier's price list would use in that currency. */
const CURRENCY = { USD: { rate: 1, step: 5 }, EUR: { rate: 0.92, step: 5 }, CNY: { rate: 7.2, step: 50 } } as const;

/** A per-style unit price in minor units (cents, fen) of `currency`. */
export function pickPriceCents(rng: Rng, category: string, currency: QuoteCurrency = 'USD'): number {
  const range = USD_PRICE_RANGE[category];
  if (!range) throw new Error(`no price range for category ${category}`);
  const { rate, step } = CURRENCY[currency];
  const usd = rng.int(range[0], range[1]);
  return Math.max(step, Math.round((usd * rate) / step) * step);
}

/**
 * Order quantities as buyers place them, between `min` and `max` (50–2,000 by default): mostly a few hundred per
 * SKU, in tens for small runs and fifties above, now and then a big run for a core colour and size.
 */
export function pickQuantity(rng: Rng, min = 50, max = 2000): number {
  const roll = rng.next();
  const [ceiling, step] = roll < 0.3 ? [300, 10] : roll < 0.85 ? [800, 50] : [max, 50];
  const low = Math.ceil(min / step);
  return rng.int(low, Math.max(low, Math.floor(Math.min(ceiling, max) / step))) * step;
}

/** `count` distinct styles from `categories`, in catalog order as a supplier's range would list them. */
export function pickStyles(rng: Rng, catalog: SampleCatalog, categories: readonly string[], count: number): Style[] {
  const pool = catalog.stylesIn(categories);
  if (pool.length < count) throw new Error(`only ${pool.length} styles in ${categories.join(', ')}`);
  const picked = new Set(rng.sample(pool, count));
  return pool.filter((style) => picked.has(style));
}

/** Up to `count` variants of one style, in catalog order (colour by colour, size by size). */
export function pickVariants(rng: Rng, style: Style, count: number): Variant[] {
  const all = style.colors.flatMap((color) => color.variants);
  const picked = new Set(rng.sample(all, count));
  return all.filter((variant) => picked.has(variant));
}
