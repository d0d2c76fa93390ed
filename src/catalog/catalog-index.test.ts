import { describe, expect, it } from 'vitest';
import {
  type CatalogEntry,
  CatalogIndex,
  NAME_KEY_POSTING_CAP,
  skuTrigrams,
  toCatalogEntries,
  tokenizeWords,
} from './catalog-index.js';
import { readCatalogCsv } from './products-csv.js';
import { ocrNormalizeSku } from './sku.js';

const entries = toCatalogEntries(await readCatalogCsv('data/products.csv'));
const index = CatalogIndex.build(entries);

const entry = (sku: string): CatalogEntry => {
  const found = index.bySku(sku);
  if (!found) throw new Error(`test catalog lacks ${sku}`);
  return found;
};
const sorted = (codes: ReadonlySet<string> | null) => (codes ? [...codes].sort() : null);

describe('toCatalogEntries', () => {
  it('splits each SKU into its parts and uses the SKU as id', () => {
    expect(entry('MJ001-0BS-XL')).toEqual({
      id: 'MJ001-0BS-XL',
      sku: 'MJ001-0BS-XL',
      name: 'Switchback Wind Jacket',
      color: 'Obsidian Black',
      size: 'XL',
      category: 'Jackets',
      skuPrefix: 'MJ001',
      colorCode: '0BS',
      sizeCode: 'XL',
    });
  });
});

describe('CatalogIndex.build', () => {
  it('indexes the whole catalog', () => {
    expect(index.size).toBe(10_052);
    expect(index.nameGroups).toHaveLength(496);
    expect(index.nameGroups.reduce((sum, group) => sum + group.entries.length, 0)).toBe(10_052);
  });

  it('refuses a repeated SKU or id, which would make answers ambiguous', () => {
    const [first] = entries;
    if (!first) throw new Error('empty catalog');
    expect(() => CatalogIndex.build([first, { ...first, id: 'other' }])).toThrow(/SKU MJ001|twice/);
    expect(() => CatalogIndex.build([first, { ...first, sku: 'KF001-FRG-XXL' }])).toThrow(/id .* twice/);
  });

  it('builds an empty index', () => {
    const empty = CatalogIndex.build([]);
    expect(empty.size).toBe(0);
    expect(empty.skuNeighbours('MC001-GLW-XL', 10)).toEqual([]);
    expect(empty.readDescription('Summit Jacket').nameWords).toEqual([]);
  });
});

describe('SKU lookups', () => {
  it('finds a product by exact SKU, by id and by style prefix', () => {
    expect(index.bySku('MJ001-0BS-XL')?.name).toBe('Switchback Wind Jacket');
    expect(index.bySku('mj001-0bs-xl')).toBeUndefined();
    expect(index.byId('MJ001-0BS-XL')?.sku).toBe('MJ001-0BS-XL');
    expect(index.byPrefix('MJ001')).toHaveLength(18);
    expect(index.byPrefix('ZZ999')).toEqual([]);
  });

  it('finds exactly one product for a look-alike spelling', () => {
    for (const raw of ['MJ001-OBS-XL', 'mj0o1-obs-xl', 'MJOOl 0BS XL', 'MJ001-0B5-XL']) {
      expect(index.byOcrKey(raw).map((found) => found.sku)).toEqual(['MJ001-0BS-XL']);
    }
    expect(index.byOcrKey('MJ001-0BS-XXXL')).toEqual([]);
  });

  it('knows which style letters, colour codes and size codes exist', () => {
    expect(index.hasStyleLetters('MJ')).toBe(true);
    expect(index.hasStyleLetters('MX')).toBe(false);
    expect(index.isColorCode('0BS')).toBe(true);
    expect(index.isColorCode('OBS')).toBe(true);
    expect(index.isColorCode('GLX')).toBe(false);
    expect(index.isSizeCode('9H')).toBe(true);
    expect(index.isSizeCode('XXXL')).toBe(false);
  });

  it('blocks a three-part code into its style and its colour-size, and nothing for other text', () => {
    const block = index.skuBlock(ocrNormalizeSku('MJ0X1-0BS-XL')) ?? [];
    expect(block.every((found) => found.skuPrefix === 'MJ0X1' || found.sku.endsWith('-0BS-XL'))).toBe(true);
    expect(block.map((found) => found.sku)).toContain('MJ001-0BS-XL');
    const sameStyle = index.skuBlock('MJ001-0BX-XL') ?? [];
    expect(sameStyle.map((found) => found.sku)).toEqual(expect.arrayContaining(['MJ001-0BS-XL', 'MJ001-DTL-XS']));
    expect(index.skuBlock('MJ01-0BS-XL')?.map((found) => found.sku)).toContain('MJ001-0BS-XL');
    expect(index.skuBlock('MJ0010BSXL')).toBeNull();
  });

  it('pre-filters SKU neighbours by shared trigrams, the intended product near the top', () => {
    const neighbours = index.skuNeighbours(ocrNormalizeSku('MJ0O1-0BSXL'), 20).map((found) => found.sku);
    expect(neighbours.length).toBeLessThanOrEqual(20);
    expect(neighbours.slice(0, 5)).toContain('MJ001-0BS-XL');
    // Reusing the shared counter must not leak counts into the next call.
    expect(index.skuNeighbours(ocrNormalizeSku('MJ0O1-0BSXL'), 20).map((found) => found.sku)).toEqual(neighbours);
    expect(index.skuNeighbours('QQQQQQ', 20)).toEqual([]);
  });

  it('anchors SKU trigrams at both ends', () => {
    expect([...skuTrigrams('AB-1')]).toEqual(['^AB', 'AB-', 'B-1', '-1$']);
  });
});

describe('colour and size columns', () => {
  it.each([
    ['Obsidian Black', ['0BS']],
    ['obsidian black', ['0BS']],
    ['0BS', ['0BS']],
    ['OBS', ['0BS']],
    ['Black', ['0BS']],
    ['blk', ['0BS']],
    ['Obsidan Black', ['0BS']],
    ['Blue Storm', ['STB']],
    ['Navy', ['NVP']],
    ['Grey', ['DRW', 'SLT']],
    ['Gray', ['DRW', 'SLT']],
    ['Glacier', ['GLW']],
  ])('reads colour %j', (text, codes) => {
    expect(sorted(index.colorCodesFor(text))).toEqual(codes);
  });

  it('reads an unknown colour as nothing rather than a guess', () => {
    expect(index.colorCodesFor('Multi')).toBeNull();
    expect(index.colorCodesFor('')).toBeNull();
  });

  it.each([
    ['XL', ['LX', 'XL']],
    ['X-Large', ['LX', 'XL']],
    ['Extra Large', ['LX', 'XL']],
    ['XXL', ['XXL']],
    ['2XL', ['XXL']],
    ['Small', ['S', 'SM']],
    ['S/M', ['SM']],
    ['L/XL', ['LX']],
    ['One Size', ['OS']],
    ['O/S', ['OS']],
    ['9.5', ['9H']],
    ['9 1/2', ['9H']],
    ['9H', ['9H']],
    ['US 9', ['9']],
    ['W32', ['32']],
    ['32W', ['32']],
    ['Size: M', ['M', 'SM']],
  ])('reads size %j', (text, codes) => {
    expect(sorted(index.sizeCodesFor(text))).toEqual(codes);
  });

  it('reads a size no product has as nothing', () => {
    expect(index.sizeCodesFor('XXXL')).toBeNull();
    expect(index.sizeCodesFor('5')).toBeNull();
    expect(index.sizeCodesFor('huge')).toBeNull();
  });
});

describe('readDescription', () => {
  it('separates colour, size and name words', () => {
    const reading = index.readDescription('Switchback Wind Jacket - Obsidian Black / XL');
    expect(sorted(reading.colorCodes)).toEqual(['0BS']);
    expect(sorted(reading.sizeCodes)).toEqual(['LX', 'XL']);
    expect(reading.nameWords).toEqual(['switchback', 'wind', 'jacket']);
  });

  it('takes a full colour name over a name word that is also a colour word', () => {
    const reading = index.readDescription("Men's Glacier Fleece Jacket, Glacier White, size X-Large");
    expect(sorted(reading.colorCodes)).toEqual(['GLW']);
    expect(sorted(reading.sizeCodes)).toEqual(['LX', 'XL']);
    expect(reading.nameWords).toEqual(['glacier', 'fleece', 'jacket']);
  });

  it('reads typos in name words, plain colour words and half sizes', () => {
    const reading = index.readDescription('switchbak wind jackt blk 9.5');
    expect(reading.nameWords).toEqual(['switchback', 'wind', 'jacket']);
    expect(sorted(reading.colorCodes)).toEqual(['0BS']);
    expect(sorted(reading.sizeCodes)).toEqual(['9H']);
  });

  it('keeps numbers that belong to a name out of the size', () => {
    const reading = index.readDescription('Redwood 200 Base Layer Crew - M');
    expect(reading.nameWords).toEqual(['redwood', '200', 'base', 'layer', 'crew']);
    expect(sorted(reading.sizeCodes)).toEqual(['M', 'SM']);
    expect(index.readDescription('Boulder 65L Trekking Pack').sizeCodes).toBeNull();
  });

  it('finds nothing in words that name no product', () => {
    expect(index.readDescription('Custom embroidered patch')).toEqual({
      colorCodes: null,
      sizeCodes: null,
      nameWords: [],
    });
  });
});

describe('name words', () => {
  it('reads a word one slip from a name word, only when that word is unique and starts the same', () => {
    expect(index.readNameWord('jacket')).toBe('jacket');
    expect(index.readNameWord('jackt')).toBe('jacket');
    expect(index.readNameWord('insulted')).toBe('insulated');
    expect(index.readNameWord('patch')).toBeNull();
    expect(index.readNameWord('mens')).toBeNull();
    expect(index.readNameWord('hat')).toBe('hat');
    expect(index.readNameWord('hxt')).toBeNull();
  });

  it('counts the words each name group shares with a description', () => {
    const hits = index.nameGroupsWithWords(['switchback', 'wind', 'jacket']);
    const best = hits.find((hit) => hit.group.name === 'Switchback Wind Jacket');
    expect(best?.shared).toBe(3);
    expect(best?.group.words).toEqual(['switchback', 'wind', 'jacket']);
    expect(hits.every((hit) => hit.shared >= 1 && hit.shared <= 3)).toBe(true);
  });

  it('reads bounded lists whatever the catalog size: common words give way to rarer words and word pairs', () => {
    // 3,000 names with "jacket", 600 with "larch", 12 with the pair "larch camp": a catalog of ~1M products.
    const big: CatalogEntry[] = [];
    const add = (style: number, name: string) => {
      const prefix = `${String.fromCharCode(65 + Math.floor(style / 1000))}A${String(style % 1000).padStart(3, '0')}`;
      const sku = `${prefix}-BLK-M`;
      big.push({ ...entry('MJ001-0BS-XL'), id: sku, sku, name, skuPrefix: prefix, colorCode: 'BLK', sizeCode: 'M' });
    };
    for (let n = 0; n < 3_000; n++) add(n, `${n < 600 ? 'Larch' : 'Summit'} Wind Jacket Z${n}`);
    for (let n = 0; n < 600; n++) add(3_000 + n, `Larch ${n < 12 ? 'Camp' : 'Trail'} Shirt Z${n}`);
    add(3_600, 'Larch Camp Shirt');
    const large = CatalogIndex.build(big);

    const hits = large.nameGroupsWithWords(['larch', 'camp', 'shirt']);
    // Only the pair "larch camp" is rare enough to read; every group it finds has its shared words counted whole.
    expect(hits).toHaveLength(13);
    expect(hits.find((hit) => hit.group.name === 'Larch Camp Shirt')?.shared).toBe(3);
    // Every key common: the rarest one's first groups, no more.
    expect(large.nameGroupsWithWords(['wind', 'jacket']).length).toBeLessThanOrEqual(NAME_KEY_POSTING_CAP);
    // On the bundled catalog no key is that common: every group sharing a word is found, as before.
    const jackets = index.nameGroups.filter((group) => group.words.includes('jacket'));
    expect(jackets.length).toBeLessThan(NAME_KEY_POSTING_CAP);
    expect(index.nameGroupsWithWords(['jacket'])).toHaveLength(jackets.length);
  });

  it('tokenizes the way names are indexed', () => {
    expect(tokenizeWords("Men's Quarter-Zip Fleece (3L)")).toEqual(['mens', 'quarter', 'zip', 'fleece', '3l']);
  });
});
