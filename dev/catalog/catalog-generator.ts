import { CATALOG_BRAND, CATALOG_COLUMNS, type CatalogProduct } from '../../src/catalog/products-csv.js';
import { createRng, type Rng } from '../../src/commerce/rng.js';

export const DEFAULT_CATALOG_COUNT = 10_052;
export const DEFAULT_CATALOG_SEED = 0x7a1de9;

/** First letter of a style prefix. */
export const PRODUCT_LINES = { M: 'Men', W: 'Women', U: 'Unisex', K: 'Kids' } as const;
export type ProductLine = keyof typeof PRODUCT_LINES;

export type Sizing = 'apparel' | 'waist' | 'footwear' | 'fit';

export interface ProductFamily {
  /** Second letter of a style prefix. */
  code: string;
  category: string;
  sizing: Sizing;
  lines: readonly ProductLine[];
  /** Relative share of styles, so jackets and fleece outnumber gloves as in a real outdoor range. */
  weight: number;
  types: readonly string[];
}

export const PRODUCT_FAMILIES: readonly ProductFamily[] = [
  {
    code: 'C',
    category: 'Coats & Shells',
    sizing: 'apparel',
    lines: ['M', 'W', 'U'],
    weight: 3,
    types: ['Down Parka', 'Rain Shell', '3L Storm Shell', 'Hardshell Jacket', 'Insulated Parka', 'Waterproof Anorak'],
  },
  {
    code: 'J',
    category: 'Jackets',
    sizing: 'apparel',
    lines: ['M', 'W', 'K'],
    weight: 4,
    types: ['Insulated Jacket', 'Softshell Jacket', 'Down Jacket', 'Wind Jacket', 'Puffer Hoodie', 'Hybrid Jacket'],
  },
  {
    code: 'F',
    category: 'Fleece',
    sizing: 'apparel',
    lines: ['M', 'W', 'U', 'K'],
    weight: 4,
    types: ['Fleece Pullover', 'Fleece Jacket', 'Grid Fleece Hoodie', 'Quarter-Zip Fleece', 'High Pile Fleece Jacket'],
  },
  {
    code: 'B',
    category: 'Base Layers',
    sizing: 'apparel',
    lines: ['M', 'W', 'K'],
    weight: 3,
    types: [
      '200 Base Layer Crew',
      '150 Base Layer Tee',
      'Base Layer Bottom',
      'Base Layer Quarter-Zip',
      'Thermal Hoodie',
    ],
  },
  {
    code: 'P',
    category: 'Pants',
    sizing: 'waist',
    lines: ['M', 'W'],
    weight: 3,
    types: ['Softshell Pant', 'Hiking Pant', 'Convertible Pant', 'Rain Pant', 'Climbing Pant', 'Insulated Ski Pant'],
  },
  {
    code: 'S',
    category: 'Shirts',
    sizing: 'apparel',
    lines: ['M', 'W'],
    weight: 2,
    types: ['Flannel Shirt', 'Sun Hoodie', 'Long-Sleeve Trail Shirt', 'Camp Shirt', 'UPF Fishing Shirt'],
  },
  {
    code: 'T',
    category: 'Tees',
    sizing: 'apparel',
    lines: ['M', 'W', 'U', 'K'],
    weight: 3,
    types: ['Graphic Tee', 'Performance Tee', 'Wool Blend Tee', 'Pocket Tee', 'Long-Sleeve Tee', 'Tech Tank'],
  },
  {
    code: 'V',
    category: 'Vests',
    sizing: 'apparel',
    lines: ['M', 'W'],
    weight: 2,
    types: ['Down Vest', 'Insulated Vest', 'Fleece Vest', 'Softshell Vest', 'Puffer Vest'],
  },
  {
    code: 'H',
    category: 'Headwear',
    sizing: 'fit',
    lines: ['U', 'K'],
    weight: 2,
    types: ['Beanie', 'Trucker Cap', 'Sun Hat', 'Bucket Hat', 'Neck Gaiter', 'Headband', 'Watch Cap'],
  },
  {
    code: 'G',
    category: 'Gloves',
    sizing: 'fit',
    lines: ['U', 'K'],
    weight: 2,
    types: ['Softshell Glove', 'Insulated Mitt', 'Liner Glove', 'Waterproof Glove', 'Fleece Glove', 'Ski Gauntlet'],
  },
  {
    code: 'A',
    category: 'Packs',
    sizing: 'fit',
    lines: ['U'],
    weight: 2,
    types: ['30L Daypack', '22L Daypack', '45L Backpack', '65L Trekking Pack', 'Hip Pack', '60L Duffel', 'Sling Bag'],
  },
  {
    code: 'W',
    category: 'Footwear',
    sizing: 'footwear',
    lines: ['M', 'W'],
    weight: 2,
    types: ['Hiking Boot', 'Trail Runner', 'Mid Waterproof Boot', 'Approach Shoe', 'Winter Boot', 'Trail Sandal'],
  },
];

/** No word here appears in a product type, so no name repeats itself ("Merino Merino Tee"). */
export const PRODUCT_LINE_WORDS: readonly string[] = (
  'Summit Trailhead Ridgeline Merino Alpine Glacier Basecamp Cascade Timberline Switchback Granite Tundra Canyon ' +
  'Boulder Highline Northwind Pinecrest Redwood Sierra Talus Scree Cirque Cornice Fjord Headwall Horizon Juniper ' +
  'Kestrel Larch Meadow Moraine Outpost Palisade Ranger Saddleback Sawtooth Skyline Snowline Sundown Traverse ' +
  'Upland Vista Wayfarer Wildwood Windward Yukon Zephyr Bristlecone Crag Driftwood'
).split(' ');

export interface CatalogColor {
  name: string;
  code: string;
}

/**
 * The 0/1 codes are deliberate: supplier quotations come through OCR, which confuses O with 0 and I with 1, and the
 * matcher must cope. No letters-only code equals one of them with 0→O and 1→I swapped back.
 */
export const CATALOG_COLORS: readonly CatalogColor[] = [
  { name: 'Obsidian Black', code: '0BS' },
  { name: 'Olive Grove', code: '0LV' },
  { name: 'Iron Ore', code: '1RN' },
  { name: 'Ochre', code: '0CH' },
  { name: 'Glacier White', code: 'GLW' },
  { name: 'Slate Grey', code: 'SLT' },
  { name: 'Charcoal Heather', code: 'CHH' },
  { name: 'Storm Blue', code: 'STB' },
  { name: 'Navy Peak', code: 'NVP' },
  { name: 'Alpine Blue', code: 'ALB' },
  { name: 'Lake Blue', code: 'LKB' },
  { name: 'Deep Teal', code: 'DTL' },
  { name: 'Spruce Green', code: 'SPG' },
  { name: 'Forest Green', code: 'FRG' },
  { name: 'Moss', code: 'MOS' },
  { name: 'Sage', code: 'SAG' },
  { name: 'Lichen', code: 'LCH' },
  { name: 'Pine Needle', code: 'PNE' },
  { name: 'Khaki Stone', code: 'KHS' },
  { name: 'Desert Sand', code: 'DSD' },
  { name: 'Sandstone', code: 'SND' },
  { name: 'Canyon Clay', code: 'CYC' },
  { name: 'Rust', code: 'RST' },
  { name: 'Burnt Orange', code: 'BRO' },
  { name: 'Ember Red', code: 'EMR' },
  { name: 'Summit Red', code: 'SMR' },
  { name: 'Cranberry', code: 'CRN' },
  { name: 'Plum Dusk', code: 'PLD' },
  { name: 'Heather Mauve', code: 'HMV' },
  { name: 'Sunrise Yellow', code: 'SRY' },
  { name: 'Mustard', code: 'MUS' },
  { name: 'Trail Tan', code: 'TRT' },
  { name: 'Driftwood Grey', code: 'DRW' },
  { name: 'Fog', code: 'FOG' },
  { name: 'Bone', code: 'BON' },
  { name: 'Cobalt', code: 'CBT' },
  { name: 'Arctic Blue', code: 'ARB' },
  { name: 'Blaze Orange', code: 'BLZ' },
  { name: 'Coyote Brown', code: 'CYB' },
  { name: 'Espresso', code: 'ESP' },
  { name: 'Wild Berry', code: 'WBR' },
];

export interface CatalogSize {
  /** What people read: "XL", "32", "9.5", "One Size". */
  size: string;
  /** The SKU part: "XL", "32", "9H", "OS". */
  code: string;
}

const sameText = (size: string): CatalogSize => ({ size, code: size });
const footwearSize = (n: number): CatalogSize => ({
  size: String(n),
  code: `${Math.floor(n)}${Number.isInteger(n) ? '' : 'H'}`,
});

export const SIZE_SCALES: Record<Sizing, readonly CatalogSize[]> = {
  apparel: ['XS', 'S', 'M', 'L', 'XL', 'XXL'].map(sameText),
  waist: ['28', '30', '32', '34', '36', '38', '40'].map(sameText),
  footwear: Array.from({ length: 13 }, (_, i) => footwearSize(7 + i / 2)),
  fit: [
    { size: 'S/M', code: 'SM' },
    { size: 'L/XL', code: 'LX' },
    { size: 'One Size', code: 'OS' },
  ],
};

function contiguousRun(rng: Rng, scale: readonly CatalogSize[], min: number, max: number): CatalogSize[] {
  const length = rng.int(min, max);
  const start = rng.int(0, scale.length - length);
  return scale.slice(start, start + length);
}

function chooseSizes(rng: Rng, sizing: Sizing): CatalogSize[] {
  const scale = SIZE_SCALES[sizing];
  switch (sizing) {
    case 'apparel':
      return contiguousRun(rng, scale, 4, 6);
    case 'waist':
      return contiguousRun(rng, scale, 4, 7);
    case 'footwear':
      return contiguousRun(rng, scale, 9, 13);
    case 'fit':
      // Either two fits (S/M, L/XL) or One Size, never a mix.
      return rng.next() < 0.5 ? scale.slice(0, 2) : scale.slice(2);
  }
}

const FAMILY_DECK = PRODUCT_FAMILIES.flatMap((family) => Array.from({ length: family.weight }, () => family));

export interface GenerateCatalogOptions {
  count?: number;
  seed?: number;
}

/**
 * The brand's demo catalog: random styles, each in 2–6 colours × its sizes, until `count` rows. Pure and seeded, so
 * the committed data/products.csv can be regenerated byte for byte. Rows come style by style, colour by colour.
 */
export function generateCatalog(options: GenerateCatalogOptions = {}): CatalogProduct[] {
  const { count = DEFAULT_CATALOG_COUNT, seed = DEFAULT_CATALOG_SEED } = options;
  if (!Number.isInteger(count) || count < 0) throw new Error(`count must be a non-negative integer, got ${count}`);

  const rng = createRng(seed);
  const stylesPerPrefix = new Map<string, number>();
  const rows: CatalogProduct[] = [];

  while (rows.length < count) {
    const family = rng.pick(FAMILY_DECK);
    const letters = `${rng.pick(family.lines)}${family.code}`;
    const number = (stylesPerPrefix.get(letters) ?? 0) + 1;
    if (number > 999) throw new Error(`style prefix ${letters} ran past 999 styles; ask for fewer products`);
    stylesPerPrefix.set(letters, number);

    const style = `${letters}${String(number).padStart(3, '0')}`;
    const name = `${rng.pick(PRODUCT_LINE_WORDS)} ${rng.pick(family.types)}`;
    const colors = rng.sample(CATALOG_COLORS, rng.int(2, 6));
    const sizes = chooseSizes(rng, family.sizing);

    // Cut size by size so that a truncated last style still comes in at least two colours, then list by colour.
    const variants = sizes
      .flatMap((size, s) => colors.map((color, c) => ({ size, s, color, c })))
      .slice(0, count - rows.length)
      .sort((a, b) => a.c - b.c || a.s - b.s);

    for (const { color, size } of variants) {
      rows.push({
        brand: CATALOG_BRAND,
        sku: `${style}-${color.code}-${size.code}`,
        name,
        color: color.name,
        size: size.size,
        category: family.category,
      });
    }
  }
  return rows;
}

function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

/** Any brand's rows in the catalog's columns (the generated catalog's, or a brand's own built from it). */
export function toCatalogCsv(rows: readonly Record<(typeof CATALOG_COLUMNS)[number], string>[]): string {
  const lines = [
    CATALOG_COLUMNS.join(','),
    ...rows.map((row) => CATALOG_COLUMNS.map((c) => csvField(row[c])).join(',')),
  ];
  return `${lines.join('\n')}\n`;
}
