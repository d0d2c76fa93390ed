import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import {
  CATALOG_COLORS,
  DEFAULT_CATALOG_COUNT,
  generateCatalog,
  PRODUCT_FAMILIES,
  PRODUCT_LINES,
  SIZE_SCALES,
  toCatalogCsv,
} from './catalog-generator.js';
import type { CatalogProduct } from '../../src/catalog/products-csv.js';
import { parseSku } from '../../src/catalog/sku.js';

const catalog = generateCatalog();

function groupByStyle(rows: CatalogProduct[]): Map<string, CatalogProduct[]> {
  const styles = new Map<string, CatalogProduct[]>();
  for (const row of rows) {
    const prefix = parseSku(row.sku)?.skuPrefix ?? 'unparsed';
    styles.set(prefix, [...(styles.get(prefix) ?? []), row]);
  }
  return styles;
}

describe('generateCatalog', () => {
  it('makes 10,052 Valden Outdoor products by default', () => {
    expect(DEFAULT_CATALOG_COUNT).toBe(10_052);
    expect(catalog).toHaveLength(10_052);
    expect(new Set(catalog.map((row) => row.brand))).toEqual(new Set(['Valden Outdoor']));
  });

  it('makes exactly the count asked for, truncating the last style', () => {
    for (const count of [0, 1, 2, 7, 101, 1234]) expect(generateCatalog({ count })).toHaveLength(count);
    expect(() => generateCatalog({ count: -1 })).toThrow(/count/);
  });

  it('gives every product a unique SKU', () => {
    expect(new Set(catalog.map((row) => row.sku)).size).toBe(catalog.length);
  });

  it('builds every SKU from its style, colour code and size code', () => {
    const colorCodes = new Map(CATALOG_COLORS.map((color) => [color.name, color.code]));
    const sizeCodes = new Map(Object.values(SIZE_SCALES).flatMap((scale) => scale.map((s) => [s.size, s.code])));
    const categories = new Map(PRODUCT_FAMILIES.map((family) => [family.code, family.category]));
    // Collect mismatches rather than asserting row by row: 50,000 expect calls take seconds.
    const mismatched = catalog.filter((row) => {
      const parts = parseSku(row.sku);
      return (
        parts === null ||
        parts.colorCode !== colorCodes.get(row.color) ||
        parts.sizeCode !== sizeCodes.get(row.size) ||
        !Object.hasOwn(PRODUCT_LINES, row.sku.charAt(0)) ||
        categories.get(row.sku.charAt(1)) !== row.category
      );
    });
    expect(mismatched).toEqual([]);
  });

  it('numbers styles from 001 within each prefix', () => {
    const numbers = new Map<string, number[]>();
    for (const prefix of groupByStyle(catalog).keys()) {
      numbers.set(prefix.slice(0, 2), [...(numbers.get(prefix.slice(0, 2)) ?? []), Number(prefix.slice(2))]);
    }
    for (const list of numbers.values()) expect(list).toEqual(list.map((_, i) => i + 1));
  });

  it('is deterministic, and the seed matters', () => {
    expect(JSON.stringify(generateCatalog())).toBe(JSON.stringify(catalog));
    expect(generateCatalog({ seed: 42 })).toEqual(generateCatalog({ seed: 42 }));
    expect(generateCatalog({ seed: 42 })).not.toEqual(catalog);
  });

  it('offers every style in 2 to 6 colours, one name and one category', () => {
    for (const [prefix, rows] of groupByStyle(catalog)) {
      const colors = new Set(rows.map((row) => row.color)).size;
      expect(colors, prefix).toBeGreaterThanOrEqual(2);
      expect(colors, prefix).toBeLessThanOrEqual(6);
      expect(new Set(rows.map((row) => `${row.name}|${row.category}`)).size, prefix).toBe(1);
    }
  });

  it('has unique colour codes, a few with OCR-prone digits', () => {
    expect(CATALOG_COLORS.length).toBeGreaterThanOrEqual(35);
    expect(new Set(CATALOG_COLORS.map((color) => color.code)).size).toBe(CATALOG_COLORS.length);
    for (const { code } of CATALOG_COLORS) expect(code).toMatch(/^[A-Z01]{3}$/);
    const withDigits = CATALOG_COLORS.filter((color) => /\d/.test(color.code));
    expect(withDigits.length).toBeGreaterThanOrEqual(3);
    expect(withDigits.length).toBeLessThanOrEqual(5);
    expect(catalog.some((row) => /\d/.test(parseSku(row.sku)?.colorCode ?? ''))).toBe(true);
  });

  it('gives products varied, realistic names without colour or size', () => {
    const names = new Set(catalog.map((row) => row.name));
    expect(names.size).toBeGreaterThanOrEqual(300);
    const colorNames = new Set(CATALOG_COLORS.map((color) => color.name));
    for (const name of names) {
      expect(name).toMatch(/^[A-Z][a-z]+ \S.*[a-z]$/);
      expect(colorNames.has(name)).toBe(false);
    }
    expect(catalog.some((row) => row.name.includes(row.color) || row.name.endsWith(` ${row.size}`))).toBe(false);
  });
});

describe('toCatalogCsv', () => {
  it('quotes only fields that need it', () => {
    const row: CatalogProduct = {
      brand: 'Valden Outdoor',
      sku: 'MC001-GLW-XL',
      name: 'Summit "Pro" Jacket, 2nd Edition',
      color: 'Glacier White',
      size: 'XL',
      category: 'Coats & Shells',
    };
    expect(toCatalogCsv([row])).toBe(
      'brand,sku,name,color,size,category\n' +
        'Valden Outdoor,MC001-GLW-XL,"Summit ""Pro"" Jacket, 2nd Edition",Glacier White,XL,Coats & Shells\n',
    );
  });

  it('matches the committed data/products.csv (regenerate with npm run catalog:generate)', async () => {
    const committed = await readFile(new URL('../../data/products.csv', import.meta.url), 'utf8');
    // A boolean, not toBe on the strings: a 700 KB diff helps nobody; the message says what to do.
    expect(committed === toCatalogCsv(generateCatalog()), 'data/products.csv is stale, regenerate it').toBe(true);
  });
});
