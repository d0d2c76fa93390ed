import { describe, expect, it } from 'vitest';
import { readCatalogCsv } from './products-csv.js';
import {
  editDistance,
  mergeLookAlikes,
  normalizeSku,
  ocrCanonicalSku,
  ocrFixStylePrefix,
  ocrNormalizeSku,
  ocrSkuVariants,
  parseSku,
  SKU_PATTERN,
  skuEditDistance,
  splitSkuLoose,
} from './sku.js';

describe('parseSku', () => {
  it.each([
    ['MC001-GLW-XL', { skuPrefix: 'MC001', colorCode: 'GLW', sizeCode: 'XL' }],
    ['MB013-0BS-XL', { skuPrefix: 'MB013', colorCode: '0BS', sizeCode: 'XL' }],
    ['WP120-SAG-32', { skuPrefix: 'WP120', colorCode: 'SAG', sizeCode: '32' }],
    ['MW004-1RN-12H', { skuPrefix: 'MW004', colorCode: '1RN', sizeCode: '12H' }],
    ['UH007-FOG-S', { skuPrefix: 'UH007', colorCode: 'FOG', sizeCode: 'S' }],
  ])('splits %s into style, colour and size', (sku, parts) => {
    expect(parseSku(sku)).toEqual(parts);
    expect(SKU_PATTERN.test(sku)).toBe(true);
  });

  it.each([
    '',
    'MC001',
    'MC001-GLW',
    'MC001-GLW-XL-2',
    'mc001-glw-xl',
    'M001-GLW-XL',
    'MC01-GLW-XL',
    'MC0001-GLW-XL',
    'MC001-GL-XL',
    'MC001-GLWW-XL',
    'MC001-GLW-',
    'MC001-GLW-XXXL',
    ' MC001-GLW-XL',
    'MC001_GLW_XL',
    'MC001-GLW-7.5',
  ])('rejects %j', (sku) => {
    expect(parseSku(sku)).toBeNull();
  });
});

describe('normalizeSku', () => {
  it.each([
    ['MC001-GLW-XL', 'MC001-GLW-XL'],
    ['mc001-glw-xl', 'MC001-GLW-XL'],
    ['  MC001-GLW-XL ', 'MC001-GLW-XL'],
    ['mc001glwxl', 'MC001-GLW-XL'],
    ['MC001GLW-XL', 'MC001-GLW-XL'],
    ['MC-001-GLW-XL', 'MC001-GLW-XL'],
    ['MC001 GLW XL', 'MC001-GLW-XL'],
    ['MC001_GLW_XL', 'MC001-GLW-XL'],
    ['MC001.GLW.XL', 'MC001-GLW-XL'],
    ['MC001/GLW/XL', 'MC001-GLW-XL'],
    ['MC001–GLW—XL', 'MC001-GLW-XL'],
    ['MC001\u2212GLW\u2011XL', 'MC001-GLW-XL'],
    ['ＭＣ００１－ＧＬＷ－ＸＬ', 'MC001-GLW-XL'],
    ['MC001--GLW--XL', 'MC001-GLW-XL'],
    ['mw004 1rn 12h', 'MW004-1RN-12H'],
    ['MW004-1RN-9.5', 'MW004-1RN-9H'],
    ['MW004-1RN-12,5', 'MW004-1RN-12H'],
    ['mc0o1glwxl', 'MC0O1-GLW-XL'],
  ])('reads %j as %s', (raw, sku) => {
    expect(normalizeSku(raw)).toBe(sku);
  });

  it('keeps dashes that already split the code in three, so a lost character stays visible', () => {
    expect(normalizeSku('MC01-GLW-XL')).toBe('MC01-GLW-XL');
  });

  it('leaves what is not SKU-shaped alone, apart from case and separators', () => {
    expect(normalizeSku('Custom embroidered patch')).toBe('CUSTOM-EMBROIDERED-PATCH');
    expect(normalizeSku('PKG 1')).toBe('PKG-1');
    expect(normalizeSku('')).toBe('');
  });
});

describe('OCR look-alikes', () => {
  it('reads a style prefix by position: letters first, digits after', () => {
    expect(ocrFixStylePrefix('MC0O1')).toBe('MC001');
    expect(ocrFixStylePrefix('MCOOI')).toBe('MC001');
    expect(ocrFixStylePrefix('M8013')).toBe('MB013');
    expect(ocrFixStylePrefix('5C0L3')).toBe('SC013');
    expect(ocrFixStylePrefix('UG0S8')).toBe('UG058');
    expect(ocrFixStylePrefix('MC0D6')).toBe('MC006');
    expect(ocrFixStylePrefix('MC001')).toBe('MC001');
    // Not prefix-shaped: left alone rather than guessed at.
    expect(ocrFixStylePrefix('MCX01')).toBe('MCX01');
    expect(ocrFixStylePrefix('MC01')).toBe('MC01');
  });

  it('fixes the prefix of a SKU but not its colour and size, which may really hold 0 and 1', () => {
    expect(ocrNormalizeSku('mc0o1-glw-xl')).toBe('MC001-GLW-XL');
    expect(ocrNormalizeSku('MB0l3-OBS-XL')).toBe('MB013-OBS-XL');
    expect(ocrNormalizeSku('MB013-0BS-XL')).toBe('MB013-0BS-XL');
    expect(ocrNormalizeSku('MW004-IRN-12H')).toBe('MW004-IRN-12H');
  });

  it('gives look-alike spellings one canonical key', () => {
    const key = ocrCanonicalSku('MB013-0BS-XL');
    for (const spelling of ['MB013-OBS-XL', 'mb0l3-obs-xl', 'M8O13-0B5-XL', 'MB013 OBS XL', 'mbo130bsxl']) {
      expect(ocrCanonicalSku(spelling)).toBe(key);
    }
    expect(ocrCanonicalSku('MW004-IRN-12H')).toBe(ocrCanonicalSku('MW004-1RN-12H'));
    expect(ocrCanonicalSku('MW004-1RN-12H')).not.toBe(ocrCanonicalSku('MW004-1RN-13H'));
    expect(mergeLookAlikes('0BS')).toBe(mergeLookAlikes('OB5'));
  });

  it('lists every reading of the colour and size, the prefix read once by position', () => {
    const variants = ocrSkuVariants('MB0l3-OBS-XL');
    expect(variants).toContain('MB013-0BS-XL');
    expect(variants).toContain('MB013-OBS-XL');
    expect(variants.every((variant) => variant.startsWith('MB013-'))).toBe(true);
    // O: 2 readings, B: 2, S: 2, X: 1, L: 3.
    expect(variants).toHaveLength(24);
    expect(new Set(variants).size).toBe(24);
    expect(ocrSkuVariants('MC001-LLL-LLL', 10)).toHaveLength(10);
    expect(ocrSkuVariants('not a sku')).toEqual(['NOT-A-SKU']);
  });

  it('splits a SKU-shaped string whose prefix has look-alikes', () => {
    expect(splitSkuLoose('MC0O1-GLW-XL')).toEqual({ skuPrefix: 'MC0O1', colorCode: 'GLW', sizeCode: 'XL' });
    expect(splitSkuLoose('MC01-GLW-XL')).toBeNull();
    expect(splitSkuLoose('MCX01-GLW-XL')).toBeNull();
  });
});

describe('editDistance', () => {
  it('counts edits and adjacent transpositions', () => {
    expect(editDistance('jacket', 'jacket')).toBe(0);
    expect(editDistance('jacket', 'jackt')).toBe(1);
    expect(editDistance('jacket', 'jakcet')).toBe(1);
    expect(editDistance('fleece', 'fleese')).toBe(1);
    expect(editDistance('', 'abc')).toBe(3);
    expect(editDistance('parka', 'jacket')).toBe(4);
  });

  it('stops at max with Infinity, and agrees with the unbounded distance below it', () => {
    expect(editDistance('parka', 'jacket', 2)).toBe(Infinity);
    expect(editDistance('jacket', 'jackt', 2)).toBe(1);
    expect(editDistance('abcdef', 'ab', 3)).toBe(Infinity);
  });

  it('charges half an edit for a look-alike in a SKU', () => {
    expect(skuEditDistance('MB013-OBS-XL', 'MB013-0BS-XL')).toBe(0.5);
    expect(skuEditDistance('MB013-OB5-XL', 'MB013-0BS-XL')).toBe(1);
    expect(skuEditDistance('MB013-0BX-XL', 'MB013-0BS-XL')).toBe(1);
    expect(skuEditDistance('MB031-0BS-XL', 'MB013-0BS-XL')).toBe(1);
    expect(skuEditDistance('MB013-0BS-X', 'MB013-0BS-XL')).toBe(1);
    expect(skuEditDistance('MB013-0BS-XL', 'MB013-0BS-XL', 0)).toBe(0);
  });
});

describe('look-alikes on the real catalog', async () => {
  const products = await readCatalogCsv('data/products.csv');
  const skus = new Set(products.map((product) => product.sku));

  it('never gives two catalog SKUs the same canonical key, so a key that finds one product is unambiguous', () => {
    const keys = new Map<string, string>();
    for (const { sku } of products) {
      const key = ocrCanonicalSku(sku);
      expect(keys.get(key), `${sku} collides with ${keys.get(key)}`).toBeUndefined();
      keys.set(key, sku);
    }
  });

  it('finds, among the variants of a garbled SKU, exactly the catalog SKU that the canonical key finds', () => {
    const garble: Record<string, string> = { '0': 'O', '1': 'l', B: '8', S: '5', L: '1', O: '0', Z: '2' };
    for (const { sku } of products.filter((_, i) => i % 25 === 0)) {
      const garbled = [...sku].map((char, i) => (i % 2 === 0 ? (garble[char] ?? char) : char)).join('');
      const found = ocrSkuVariants(garbled).filter((variant) => skus.has(variant));
      expect(found, garbled).toEqual([sku]);
      expect(ocrCanonicalSku(garbled)).toBe(ocrCanonicalSku(sku));
    }
  });
});
