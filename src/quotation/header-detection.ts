// Finding the item table the way a person does: by its header, not by its position. Every row is scored by how many
// of its cells name a column a quotation has (SKU, description, quantity, price…) in English, Chinese or the main
// European languages; the best rows become table headers, with the row above or below joined in when it carries
// sub-headers (sizes, price breaks).
import { currencyIn, parseNumber } from './numbers.js';
import { cellKey, type SheetGrid } from './types.js';
import { anyOf, wholeOf } from './regex-words.js';
import {
  type ColumnProfile,
  findQuantityAndPrice,
  isWordy,
  profileColumn,
  sampleRows,
  skuScore,
} from './column-roles.js';

export type ColumnKind =
  | 'sku'
  | 'description'
  | 'color'
  | 'size'
  | 'quantity'
  | 'unitPrice'
  | 'discount'
  | 'total'
  | 'notes'
  | 'attribute'
  | 'currency'
  | 'unit'
  | 'index'
  | 'ignore';

export interface HeaderMatch {
  kind: ColumnKind;
  /** 1 when the cell is just the keyword ("Qty", "单价\nUnit Price"); less when the keyword is one word among several. */
  strength: number;
  /** "Net price" is already discounted; "List price" is before discount. */
  priceBasis: 'net' | 'list' | null;
}

interface Rule {
  kind: ColumnKind;
  pattern: RegExp;
  priceBasis?: 'net' | 'list';
}

/**
 * The buyer's own figures beside a supplier's price: a target or budget, the price paid last time (India's "LPP", last
 * purchase price), a benchmark. They sit in RFQ templates and comparison sheets, often left of the supplier's column,
 * and are never what the supplier asks.
 */
export const BUYER_PRICE = anyOf([
  String.raw`\btarget\b|\bbudget(?:ed)?\b|\bbenchmark|\bour\s*(?:price|rate|cost)\b|\bl\.?\s?p\.?\s?p\b`,
  String.raw`\b(?:last|previous|prev\.?|prior|old|existing|current)\s*(?:po\s*|purchase\s*|paid\s*|order\s*)?` +
    String.raw`(?:unit\s*)?(?:price|rate|cost)\b`,
  // German, Spanish, Chinese, Vietnamese: target, budget, our price, last or previous price.
  String.raw`ziel[\s-]*preis|\bunser\s*preis|\bletzter\s*(?:ek-?\s*)?preis|\bvorheriger\s*preis|\bvorpreis`,
  String.raw`\bprecio\s*(?:objetivo|meta|anterior|de\s*referencia)|\bnuestro\s*precio|[uú]ltimo\s*precio`,
  String.raw`目标价|预算|上次价|历史价|参考价|giá\s*mục\s*tiêu|ngân\s*sách|giá\s*(?:cũ|trước|lần\s*trước)`,
]);

// Order matters: the first rule that matches wins, so the specific phrases ("net price", "total qty", "colour code",
// "style description") come before the single words they contain ("price", "total", "code", "style").
const RULES: Rule[] = [
  {
    kind: 'ignore',
    pattern: anyOf([
      String.raw`\bh\.?s\.?\s*code\b|\bbar\s*code\b|\bean\b|\bupc\b|\bcartons?\b|\bctns?\b|\bcbm\b|\bg\.?w\.?\b`,
      // A tariff code (India's HSN/SAC, the HS code, the EU's Zolltarif) is never the product's SKU.
      String.raw`\bn\.?w\.?\b|\bmeas|箱|\bhsn\b|\bsac\b|\btariff|zolltarif|海关编码|mã\s*hs`,
      BUYER_PRICE.source,
      // Tax columns of an invoice-style quote (GST %, CGST amount, MwSt): a rate or a tax, never the item's price.
      String.raw`^(?:gst|igst|cgst|sgst|utgst|vat|iva|mwst|ust|tax|thuế|税率|税额)\b`,
    ]),
  },
  { kind: 'currency', pattern: /^(?:currency|curr\.?|ccy)$|币种|货币/ },
  {
    kind: 'attribute',
    pattern: anyOf([
      String.raw`\bmoq\b|\bmin(?:imum)?\.?\s*(?:order|qty)|起订|\blead\s*time\b|\bdelivery\b|` +
        String.raw`交期|\bfabric\b|\bcomposition\b`,
      String.raw`\bmaterial\b|\bcontent\b|\bweight\b|\bgsm\b|\borigin\b|面料|成分`,
      // A requirements list's dates: when the goods are needed, kept with the line.
      String.raw`\bneed(?:ed)?\s*(?:by|date|on)\b|\brequired\s*(?:by|date|on)\b|\bdue\s*date\b`,
    ]),
  },
  {
    kind: 'unitPrice',
    priceBasis: 'net',
    pattern: anyOf([
      String.raw`\b(?:net|nett|discounted|disc\.?)\s*(?:unit\s*)?(?:price|cost)\b|\bprice\s*after\s*disc`,
      String.raw`\bfinal\s*(?:unit\s*)?price\b|净价|折后`,
    ]),
  },
  {
    kind: 'unitPrice',
    priceBasis: 'list',
    pattern: /\b(?:list|gross|regular|original|catalog(?:ue)?)\s*(?:unit\s*)?price\b|原价/,
  },
  {
    kind: 'unitPrice',
    pattern: anyOf([
      String.raw`(?:\bunit|\bu\/|\bper)\s*(?:price|cost)\b|\bprice\s*(?:per|\/)\s*(?:pc|pcs|` +
        String.raw`piece|unit|pair|set)\b|单价`,
      String.raw`einzelpreis|stückpreis|\bprecio\s*unit|preço\s*unit|\bpreco\s*unit|\bprix\s*unit|\bp\.\s*u\.`,
      String.raw`birim\s*fiyat|\bvalor\s*unit|^p\s*\/\s*u$|\bpricing\b|đơn\s*giá|don\s*gia|含税单价`,
      // "USD/pc", "Rs. per piece", "€/Stk": a currency per unit is a unit price.
      String.raw`^(?:usd|us\$|\$|eur|€|inr|rs\.?|₹|rmb|cny|vnd|gbp|£)\s*(?:\/|per)\s*(?:pcs?|pieces?|units?|pairs?|` +
        String.raw`sets?|nos?|stk|stück|unidad|chiếc|cái)$`,
    ]),
  },
  {
    kind: 'discount',
    pattern:
      /\bdisc(?:ount)?s?\b\.?|\bdisc\.|折扣|\brebate\b|优惠|\brabatt|\bdescuento|\bdesconto|\bremise\b|indirim|iskonto/,
  },
  {
    kind: 'quantity',
    pattern: anyOf([
      String.raw`\bq'?ty\b|\bqnty\b|\bquantit(?:y|ies)\b|数量|\border(?:ed)?\s*(?:pcs|units|pairs)\b`,
      String.raw`^(?:pcs|units|pieces|pairs|no\.?\s*of\s*pcs)\b|menge|\banzahl|\bcantidad|\bquantidade|` +
        String.raw`\bqtd\b|\bqt[ée]`,
      String.raw`quantit[ée]|miktar|^adet$|^stück$|^nos\.?$|số\s*lượng|so\s*luong|^stk\.?$`,
    ]),
  },
  {
    kind: 'total',
    pattern: anyOf([
      String.raw`\b(?:amount|total|ttl|sub-?total|sum|extended|ext\.?|value)(?:\b|(?=\s|$))|金额|总价|总额|合计|小计|\bbetrag`,
      String.raw`gesamt|\bsumme\b|\bimporte\b|\bmontant\b|\bvalor\b|\btutar|toplam|thành\s*tiền|thanh\s*tien`,
    ]),
  },
  {
    kind: 'unitPrice',
    pattern: /\b(?:price|cost|fob|exw|cif|ddp|rate)\b|价格|报价|价|preis|\bprecio\b|preço|\bpreco\b|\bprix\b|fiyat/,
  },
  {
    kind: 'notes',
    pattern:
      /\b(?:remarks?|notes?|comments?|memo)\b|备注|说明|bemerkung|anmerkung|\bobserva|\bremarques?\b|commentaire/,
  },
  { kind: 'color', pattern: /\bcolou?r(?:s|way|ways)?\b|颜色|色号|^col\.?$|\bfarbe|^cor$|\bcouleur|^renk$/ },
  { kind: 'size', pattern: /\bsizes?\b|尺码|尺寸|größe|grösse|\bgroesse|^talla$|^tamanho$|^taille$|^beden$/ },
  {
    kind: 'description',
    pattern: anyOf([
      String.raw`\bdesc(?:ription|r)?\b\.?|\b(?:product|item|article|goods|style)\s*name\b|^name$|品名|描述|名称|产品名|货物`,
      // Indian invoices and quotes head the goods "Particulars"; Vietnamese ones "Tên hàng" (name) or "Mô tả".
      String.raw`\bparticulars\b|tên\s*(?:hàng|sản\s*phẩm)|mô\s*tả|ten\s*hang|\bdenominaci[oó]n|\bartikelbezeichnung`,
      String.raw`bezeichnung|beschreibung|descripci[oó]n|descri[çc][ãa]o|d[ée]signa(?:tion|` +
        String.raw`[çc][ãa]o)|açıklama|ürün\s*adı`,
    ]),
  },
  {
    kind: 'sku',
    pattern: anyOf([
      String.raw`\bsku\b|\bitem\s*(?:no\b|#|code\b|number\b|ref\b)|\bstyle\b`,
      String.raw`\bart(?:icle)?\b\.?\s*(?:no\b|#|nr\b|number\b|code\b)?|\bmodel\b|\bref(?:erence)?\b|\bcode\b`,
      String.raw`\bpart\s*(?:no\b|#|number\b)|款号|货号|编号|型号|款式|\bartikel|\bart\.?-nr|\breferencia|refer[êe]ncia`,
      String.raw`r[ée]f[ée]rence|c[óo]digo|\bmodelo\b|ürün\s*kodu|stok\s*kodu|mã\s*(?:hàng|sp|sản\s*phẩm)|ma\s*hang`,
    ]),
  },
  { kind: 'description', pattern: /^(?:items?|products?|goods|merchandise|producto|produto|produkt|ürün|产品|商品)$/ },
  {
    kind: 'index',
    pattern:
      /^(?:no\.?|#|s\/n|sn|sl\.?(?:\s*no\.?)?|s\.?\s*no\.?|sr\.?(?:\s*no\.?)?|line|序号|pos\.?|position|stt|nº|n°)$/,
  },
  { kind: 'unit', pattern: /^(?:unit|uom|u\/m|单位|einheit|me|unidad|đvt|dvt|đơn\s*vị(?:\s*tính)?|per)$/ },
];

/** Filler that does not weaken a header: currency and unit annotations, numbering marks, punctuation. */
const FILLER = anyOf(
  [
    String.raw`\([^)]*\)|（[^）]*）`,
    String.raw`\b(?:usd|eur|gbp|rmb|cny|hkd|us\$|no|nr|pcs|pc|per|in|of|the|fob|order|ordered|` +
      String.raw`total|unit|line|item|style|quoted|product|required|req|requested|needed|estimated|est)\b`,
    String.raw`[^a-z\u4e00-\u9fff]`,
  ],
  'g',
);

export function normaliseHeader(text: string): string {
  // NFKC folds full-width letters and digits ("Ｑｔｙ"); plain ASCII, most of any sheet, needs none of it.
  return (/^[\x20-\x7e]*$/.test(text) ? text : text.normalize('NFKC'))
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .replace(/[:：]\s*$/, '')
    .trim()
    .replace(/^\((.*)\)$/, '$1');
}

/** What column a header cell names, or null when it is not a header word. */
export function classifyHeader(text: string): HeaderMatch | null {
  const normal = normaliseHeader(text);
  if (normal === '' || normal.length > 60 || normal.split(' ').length > 8) return null;
  // "Ref: Q-2291" or "Payment: 30% T/T" are key:value cells of a title block, not column headers.
  if (/[:：]\s*\S/.test(normal) && currencyIn(normal.split(/[:：]/).slice(1).join(':')) === null) return null;
  if (parseNumber(normal) !== null) return null;
  for (const rule of RULES) {
    if (!rule.pattern.test(normal)) continue;
    const letters = normal.replace(FILLER, '').length;
    const rest = normal.replace(new RegExp(rule.pattern.source, 'g'), ' ').replace(FILLER, '').length;
    let strength = letters === 0 || rest <= 3 ? 1 : Math.max(0.4, 1 - rest / letters);
    // Header words carry no digits outside their annotations: "Style 12" is a description that happens to say style.
    if (/\d/.test(normal.replace(/\([^)]*\)|（[^）]*）/g, ''))) strength /= 2;
    return { kind: rule.kind, strength: Math.round(strength * 100) / 100, priceBasis: rule.priceBasis ?? null };
  }
  return null;
}

/**
 * The smallest quantity a price-break header stands for: "1-299 pcs" → 1, "300-999" → 300, "1000+" → 1000,
 * "MOQ 500" → 500, "≥1000" → 1000, "5K+" → 5000, "<300" → 1. `bare` also accepts a lone number ("500"), which is only
 * a price break when the column sits under a price heading.
 */
export function parsePriceBreak(text: string, options: { bare?: boolean } = {}): number | null {
  const normal = normaliseHeader(text).replace(/(\d),(?=\d{3}\b)/g, '$1');
  if (!/\d/.test(normal)) return null;
  for (const [pattern, read] of PRICE_BREAKS) {
    const match = pattern.exec(normal);
    if (!match) continue;
    if (read === 'one') return 1;
    const n = Number(match[1]) * (match[2] ? 1000 : 1);
    return Number.isInteger(n) && n > 0 ? n : null;
  }
  if (options.bare && /^\d+$/.test(normal)) return Number(normal) > 0 ? Number(normal) : null;
  return null;
}

const QTY = String.raw`(\d+(?:\.\d+)?)\s*(k)?`;
const UNIT = String.raw`\s*(?:pcs|pieces|pc|units|prs|pairs|sets|件)?\.?`;
const PRICE_WORD = String.raw`(?:\s*(?:unit\s*)?price)?`;
/** What may stand before a break's numbers: "Price 300-999", "Qty 1000+", not "GW-FR-2025-06". */
const LEAD = String.raw`^(?:(?:(?:unit\s*)?price|qty|quantity|order\s*qty|moq)\s*[:@]?\s*)?`;
/** Regexes for price-break headers; 'min' reads the lower bound from groups 1 (number) and 2 (a "k"). */
const PRICE_BREAKS: [RegExp, 'min' | 'one'][] = [
  [new RegExp(String.raw`${LEAD}${QTY}${UNIT}\s*(?:-|~|to|–)\s*\d+(?:\.\d+)?\s*k?${UNIT}${PRICE_WORD}$`), 'min'],
  [
    new RegExp(
      String.raw`${LEAD}${QTY}${UNIT}\s*(?:\+|&\s*(?:up|above|over)|and\s*(?:up|above|over)|` +
        // The unit may follow the plus: "1000+ pcs", "3,000+ pcs".
        String.raw`up|or\s*more|以上)${UNIT}${PRICE_WORD}$`,
    ),
    'min',
  ],
  [new RegExp(String.raw`${LEAD}(?:≥|>=|>|above|over|from|min\.?|moq|@)\s*${QTY}${UNIT}${PRICE_WORD}$`), 'min'],
  [new RegExp(String.raw`${LEAD}(?:<|≤|<=|under|below|up\s*to|less\s*than)\s*${QTY}${UNIT}${PRICE_WORD}$`), 'one'],
  [
    new RegExp(String.raw`^(?:(?:unit\s*)?price\s*)?${QTY}\s*(?:pcs|pieces|units|prs|pairs|件)\.?${PRICE_WORD}$`),
    'min',
  ],
];

const LETTER_SIZES = wholeOf([
  String.raw`xxxs|xxs|xs|s|m|l|xl|xxl|xxxl|xxxxl|[2-6]xl|[2-6]x|os|o\/s|one\s*size|free\s*size|` +
    String.raw`\d{1,2}[tyw]|w\d{2}|\d{2}w`,
  String.raw`\d{2}\s*[x/]\s*\d{2}`,
]);

/** A letter size ("XS", "2XL", "One Size", "W32") written as a column header; numbers need context (see below). */
export function isSizeLabel(text: string): boolean {
  return LETTER_SIZES.test(normaliseHeader(text));
}

/** A numeric size: waist, EU or kids' sizes run from 0 to about 60. */
function isNumericSize(text: string): boolean {
  const normal = normaliseHeader(text);
  return /^\d{1,2}(?:\.5)?$/.test(normal) && Number(normal) <= 60;
}

export interface ColumnMapping {
  sku: number | null;
  description: number | null;
  color: number | null;
  size: number | null;
  quantity: number | null;
  unitPrice: number | null;
  /** The list price when the table also has a net price (which is then `unitPrice`). */
  listPrice: number | null;
  discount: number | null;
  total: number | null;
  currency: number | null;
  notes: number[];
  /** Columns kept as "Header: value" in the line's notes (MOQ, lead time, fabric…). */
  attributes: { column: number; label: string }[];
  /** Price-break columns, ascending by minQty. */
  tiers: { column: number; minQty: number }[];
  /** Size-run matrix columns: quantities per size. */
  sizes: { column: number; label: string }[];
  /**
   * A column of price-break labels ("1-499 pcs", "500-999 pcs", "≥1,000 pcs") beside the price: a product's breaks
   * written as rows, its first row carrying the product and the rows below one more break each.
   */
  tierLabels: number | null;
  /** `unitPrice` is already net of any discount column. */
  unitPriceIsNet: boolean;
  /** The discount header carries a "%", so a bare 5 in it means 5 %. */
  discountIsPercent: boolean;
}

export interface ItemTableHeader {
  /** 0-based first and last rows of the header band (one row, or two when sub-headers sit below or above). */
  firstRow: number;
  lastRow: number;
  columns: ColumnMapping;
  /** 0–1: how clearly the header words name their columns. */
  clarity: number;
  /** Currency named in a price header ("Unit Price (USD)"), if one. */
  currency: string | null;
  /** Equal for two headers that map the same columns the same way: a repeated header, not a new table. */
  signature: string;
  score: number;
}

interface ColumnClass {
  kind: ColumnKind | 'tier' | 'sizeQty';
  strength: number;
  priceBasis: 'net' | 'list' | null;
  minQty?: number;
  label: string;
}

interface RowScore {
  row: number;
  score: number;
  qualifies: boolean;
}

/** What one cell could be in a header row. */
type CellRole =
  | { role: 'size' }
  | { role: 'tier' }
  | { role: 'bare'; value: number }
  | { role: 'number' }
  | { role: 'word'; match: HeaderMatch }
  | { role: 'other' };

export interface HeaderScanner {
  classify(text: string): HeaderMatch | null;
  role(text: string): CellRole;
}

/** Cached per text: a sheet repeats the same colours, sizes and words thousands of times. */
export function createScanner(): HeaderScanner {
  const matches = new Map<string, HeaderMatch | null>();
  const roles = new Map<string, CellRole>();
  const classify = (text: string) => {
    let match = matches.get(text);
    if (match === undefined) {
      match = classifyHeader(text);
      matches.set(text, match);
    }
    return match;
  };
  return {
    classify,
    role(text) {
      let role = roles.get(text);
      if (role === undefined) {
        role = roleOf(text, classify);
        roles.set(text, role);
      }
      return role;
    },
  };
}

function roleOf(text: string, classify: (text: string) => HeaderMatch | null): CellRole {
  if (/^\d+$/.test(text)) return { role: 'bare', value: Number(text) };
  if (/^-?\d+(?:\.\d+)?$/.test(text)) return { role: 'number' };
  // Product codes ("KF001-FRG-M") are most of a sheet's distinct texts: settle them with the fewest tests.
  if (/^\p{L}[^\s]*\d/u.test(text) && !/\s/.test(text) && !/^(?:moq|price|qty)/i.test(text)) {
    if (isSizeLabel(text)) return { role: 'size' };
    return parseNumber(text) !== null ? { role: 'number' } : { role: 'other' };
  }
  if (isSizeLabel(text)) return { role: 'size' };
  if (parsePriceBreak(text) !== null) return { role: 'tier' };
  if (parseNumber(text) !== null) return { role: 'number' };
  // A code ("KF001-FRG-M") names no column: header words carry no digits unless they are sizes or price breaks.
  if (/\d/.test(text) && !/\s/.test(text)) return { role: 'other' };
  const match = classify(text);
  return match ? { role: 'word', match } : { role: 'other' };
}

export function visibleColumns(sheet: SheetGrid): number[] {
  const columns: number[] = [];
  for (let c = 0; c < sheet.columnCount; c++) if (!sheet.hiddenColumns.has(c)) columns.push(c);
  return columns;
}

function cellText(sheet: SheetGrid, row: number, column: number): string {
  return (sheet.cells[row]?.[column] ?? '').trim();
}

/** Bare whole numbers rising left to right ("28 30 32 34", "300 500 1000") are size or price-break headings. */
function isRisingRun(values: number[]): boolean {
  return values.length >= 2 && values.every((v, i) => i === 0 || v > (values[i - 1] ?? Infinity));
}

function scoreRow(sheet: SheetGrid, row: number, columns: number[], scanner: HeaderScanner): RowScore {
  const kinds = new Map<ColumnKind, number>();
  const seen = new Set<string>();
  const bare: number[] = [];
  let sizes = 0;
  let tiers = 0;
  let numbers = 0;
  let nonEmpty = 0;
  let bold = 0;
  for (const column of columns) {
    const text = cellText(sheet, row, column);
    if (text === '') continue;
    nonEmpty++;
    if (sheet.bold.has(cellKey(row, column))) bold++;
    // A merged header fills every cell of its range with the same text: count it once.
    if (seen.has(text)) continue;
    seen.add(text);
    const cell = scanner.role(text);
    if (cell.role === 'size') sizes++;
    else if (cell.role === 'tier') tiers++;
    else if (cell.role === 'bare') bare.push(cell.value);
    else if (cell.role === 'number') numbers++;
    else if (cell.role === 'word' && cell.match.kind !== 'ignore') {
      kinds.set(cell.match.kind, Math.max(kinds.get(cell.match.kind) ?? 0, cell.match.strength));
    }
  }
  // A header has no numbers of its own, so a rising run of whole numbers is headings only in a row without others.
  if (numbers === 0 && isRisingRun(bare)) {
    if (bare.every((v) => v <= 60)) sizes += bare.length;
    else tiers += bare.length;
  } else {
    numbers += bare.length;
  }
  const identifies = Math.max(kinds.get('sku') ?? 0, kinds.get('description') ?? 0) >= 0.6;
  const quantifies = kinds.has('quantity') || kinds.has('unitPrice') || kinds.has('total') || tiers >= 2 || sizes >= 2;
  // Two columns named in words at least: one word and a run of numbers is as likely a data row as a header.
  const named = [...kinds.keys()].filter((kind) => kind !== 'index' && kind !== 'unit').length;
  let score = 0;
  for (const [kind, strength] of kinds) if (kind !== 'index' && kind !== 'unit') score += strength;
  score += tiers >= 2 ? 1 : tiers * 0.5;
  score += sizes >= 2 ? 1 : 0;
  if (nonEmpty > 0 && bold >= nonEmpty * 0.6) score += 0.5;
  score -= numbers * 0.5;
  return { row, score, qualifies: identifies && quantifies && named >= 2 && score >= 1.5 };
}

/**
 * Rows are pre-filtered cheaply (a sheet is mostly data rows): a header names at least one column in words, and a
 * second one in words or with sizes or price breaks.
 */
function couldBeHeader(sheet: SheetGrid, row: number, columns: number[], scanner: HeaderScanner): boolean {
  let words = 0;
  let labels = 0;
  for (const column of columns) {
    const text = cellText(sheet, row, column);
    if (text === '' || text.length > 60) continue;
    const cell = scanner.role(text);
    if (cell.role === 'word') words++;
    else if (cell.role === 'size' || cell.role === 'tier' || cell.role === 'bare') labels++;
  }
  return words >= 2 || (words === 1 && labels >= 2);
}

/**
 * Whether a neighbouring row belongs to the header band: every text in it names a column, a size or a price break, or
 * repeats the main row (a header merged down); and it is not a title merged across the whole table ("PRICE LIST").
 */
function joinsBand(sheet: SheetGrid, row: number, main: number, columns: number[], scanner: HeaderScanner): boolean {
  if (row < 0 || row >= sheet.rowCount || sheet.hiddenRows.has(row)) return false;
  const bare: number[] = [];
  let named = 0;
  for (const column of columns) {
    const text = cellText(sheet, row, column);
    if (text === '' || text === cellText(sheet, main, column)) continue;
    if (isSizeLabel(text) || parsePriceBreak(text) !== null) named++;
    else if (/^\d+$/.test(text)) bare.push(Number(text));
    else if (scanner.classify(text) !== null || (text.length <= 12 && currencyIn(text) !== null)) named++;
    else return false;
  }
  if (bare.length > 0 && !isRisingRun(bare)) return false;
  if (named + bare.length === 0) return false;
  const spanned = columns.filter((c) => cellText(sheet, main, c) !== '');
  const texts = new Set(spanned.map((c) => cellText(sheet, row, c)).filter((t) => t !== ''));
  const filled = spanned.filter((c) => cellText(sheet, row, c) !== '').length;
  return !(texts.size === 1 && filled === spanned.length && spanned.length > 2);
}

function classifyBandColumn(
  sheet: SheetGrid,
  band: number[],
  column: number,
  bandSizes: Set<number>,
  bandTiers: Set<number>,
  scanner: HeaderScanner,
): ColumnClass | null {
  const texts: string[] = [];
  for (const row of band) {
    const text = cellText(sheet, row, column);
    if (text !== '' && texts.at(-1) !== text) texts.push(text);
  }
  if (texts.length === 0) return null;
  const label = texts.join(' ');
  if (bandSizes.has(column)) {
    const size = [...texts].reverse().find((t) => isSizeLabel(t) || isNumericSize(t)) ?? texts.at(-1) ?? '';
    return { kind: 'sizeQty', strength: 1, priceBasis: null, label: size };
  }
  if (bandTiers.has(column)) {
    for (const text of [...texts].reverse()) {
      const minQty = parsePriceBreak(text, { bare: true });
      if (minQty !== null) return { kind: 'tier', strength: 1, priceBasis: null, minQty, label };
    }
  }
  // The lowest text names the column; the ones above are headings over several columns.
  const matches = [...texts].reverse().map((text) => scanner.classify(text));
  const lowest = matches.find((match) => match !== null);
  if (!lowest) return null;
  // "Unit" under a merged "Price (USD)" is the unit price, not the unit of measure.
  if (lowest.kind === 'unit' && matches.some((match) => match?.kind === 'unitPrice')) {
    return { kind: 'unitPrice', strength: lowest.strength, priceBasis: null, label };
  }
  return { kind: lowest.kind, strength: lowest.strength, priceBasis: lowest.priceBasis, label };
}

/** Size-run and price-break columns of a band: found together because a bare number means one or the other. */
function findSizesAndTiers(
  sheet: SheetGrid,
  band: number[],
  columns: number[],
  scanner: HeaderScanner,
): { sizes: Set<number>; tiers: Set<number> } {
  const sizes = new Set<number>();
  const tiers = new Set<number>();
  const headingOver = (column: number, kind: ColumnKind) =>
    band.some((row) => {
      const text = cellText(sheet, row, column);
      return text !== '' && scanner.classify(text)?.kind === kind;
    });
  for (const row of band) {
    const letter = columns.filter((c) => isSizeLabel(cellText(sheet, row, c)));
    if (letter.length >= 2) letter.forEach((c) => sizes.add(c));
    for (const c of columns) if (parsePriceBreak(cellText(sheet, row, c)) !== null) tiers.add(c);
    const bare = columns.filter((c) => /^\d+$/.test(cellText(sheet, row, c)));
    if (bare.length < 2) continue;
    for (const c of bare) {
      if (headingOver(c, 'size') || (isNumericSize(cellText(sheet, row, c)) && !headingOver(c, 'unitPrice'))) {
        sizes.add(c);
      } else if (headingOver(c, 'unitPrice') || Number(cellText(sheet, row, c)) >= 100) {
        tiers.add(c);
      }
    }
  }
  for (const c of sizes) tiers.delete(c);
  return { sizes, tiers };
}

function buildHeader(
  sheet: SheetGrid,
  main: RowScore,
  columns: number[],
  scanner: HeaderScanner,
): ItemTableHeader | null {
  const band = [main.row];
  if (joinsBand(sheet, main.row - 1, main.row, columns, scanner)) band.unshift(main.row - 1);
  if (joinsBand(sheet, main.row + 1, main.row, columns, scanner)) band.push(main.row + 1);
  const { sizes, tiers } = findSizesAndTiers(sheet, band, columns, scanner);

  const byKind = new Map<ColumnKind, { column: number; cls: ColumnClass }[]>();
  const mapping: ColumnMapping = {
    sku: null,
    description: null,
    color: null,
    size: null,
    quantity: null,
    unitPrice: null,
    listPrice: null,
    discount: null,
    total: null,
    currency: null,
    notes: [],
    attributes: [],
    tiers: [],
    sizes: [],
    tierLabels: null,
    unitPriceIsNet: false,
    discountIsPercent: false,
  };
  const strengths: number[] = [];
  const labels: string[] = [];
  for (const column of columns) {
    const cls = classifyBandColumn(sheet, band, column, sizes, tiers, scanner);
    if (!cls) continue;
    if (cls.kind === 'sizeQty') mapping.sizes.push({ column, label: cls.label });
    else if (cls.kind === 'tier' && cls.minQty !== undefined) mapping.tiers.push({ column, minQty: cls.minQty });
    else if (cls.kind !== 'tier') byKind.set(cls.kind, [...(byKind.get(cls.kind) ?? []), { column, cls }]);
    if (cls.kind === 'unitPrice' || cls.kind === 'total' || cls.kind === 'tier') labels.push(cls.label);
  }

  const content = contentOf(sheet, band, columns);
  settleRolesByContent(byKind, content);

  const best = (kind: ColumnKind) => {
    const found = byKind.get(kind) ?? [];
    // The clearest header wins; among equals the leftmost, which is where people put the main column. For the
    // identity columns what the cells hold comes first: unique codes beat a 1..n run, words beat codes.
    const rank = (column: number) =>
      kind === 'sku' ? skuScore(content.profile(column)) : kind === 'description' ? content.wordiness(column) : 0;
    const chosen = [...found].sort(
      (a, b) => rank(b.column) - rank(a.column) || b.cls.strength - a.cls.strength || a.column - b.column,
    )[0];
    if (chosen) strengths.push(chosen.cls.strength);
    return chosen ?? null;
  };
  for (const kind of ['sku', 'description', 'color', 'size', 'quantity', 'discount', 'total', 'currency'] as const) {
    const chosen = best(kind);
    if (chosen) mapping[kind] = chosen.column;
  }
  const prices = byKind.get('unitPrice') ?? [];
  const net = prices.find((p) => p.cls.priceBasis === 'net');
  if (net) {
    mapping.unitPrice = net.column;
    mapping.unitPriceIsNet = true;
    mapping.listPrice = prices.find((p) => p !== net)?.column ?? null;
    strengths.push(net.cls.strength);
  } else {
    const chosen = best('unitPrice');
    if (chosen) mapping.unitPrice = chosen.column;
  }
  const discount = byKind.get('discount')?.find((d) => d.column === mapping.discount);
  mapping.discountIsPercent = discount ? /%|percent|pct/i.test(discount.cls.label) : false;
  mapping.notes = (byKind.get('notes') ?? []).map((n) => n.column);
  mapping.attributes = (byKind.get('attribute') ?? []).map((a) => ({ column: a.column, label: a.cls.label }));
  fillQuantityAndPrice(mapping, content, columns);
  if (mapping.unitPrice !== null && mapping.tiers.length === 0 && mapping.sizes.length === 0) {
    const taken = new Set([mapping.sku, mapping.description, mapping.quantity, mapping.unitPrice, mapping.total]);
    mapping.tierLabels = columns.find((c) => !taken.has(c) && content.breakLabels(c)) ?? null;
  }
  mapping.tiers.sort((a, b) => a.minQty - b.minQty);
  mapping.tiers = mapping.tiers.filter((tier, i, all) => i === 0 || all[i - 1]?.minQty !== tier.minQty);
  if (mapping.tiers.length > 0) strengths.push(1);
  if (mapping.sizes.length > 0) strengths.push(1);

  const identifies = mapping.sku !== null || mapping.description !== null;
  const quantifies =
    mapping.quantity !== null || mapping.unitPrice !== null || mapping.tiers.length > 0 || mapping.sizes.length > 0;
  if (!identifies || !quantifies) return null;

  const clarity = strengths.length ? strengths.reduce((a, b) => a + b, 0) / strengths.length : 0;
  const currencies = new Set(labels.map(currencyIn).filter((c): c is string => c !== null));
  return {
    firstRow: band[0] ?? main.row,
    lastRow: band.at(-1) ?? main.row,
    columns: mapping,
    clarity: Math.round(clarity * 100) / 100,
    currency: currencies.size === 1 ? ([...currencies][0] ?? null) : null,
    signature: signatureOf(mapping),
    score: main.score,
  };
}

interface TableContent {
  profile(column: number): ColumnProfile;
  /** 0–1 for ranking description candidates: wordy text first, codes next, numbers and numbering last. */
  wordiness(column: number): number;
  /** Most filled cells are price-break labels, naming at least two different breaks. */
  breakLabels(column: number): boolean;
}

/** Profiles of the cells under a header band, computed once per column and only for the columns asked about. */
function contentOf(sheet: SheetGrid, band: number[], columns: number[]): TableContent {
  const rows = sampleRows(sheet, (band.at(-1) ?? 0) + 1, columns);
  const profiles = new Map<number, ColumnProfile>();
  const profile = (column: number) => {
    let found = profiles.get(column);
    if (!found) {
      found = profileColumn(sheet, column, rows);
      profiles.set(column, found);
    }
    return found;
  };
  return {
    profile,
    wordiness(column) {
      const p = profile(column);
      if (p.filled === 0) return 0.5;
      if (isWordy(p)) return 1;
      return p.lineNumbering || p.numeric >= 0.8 ? 0 : 0.5;
    },
    breakLabels(column) {
      const texts = rows.map((row) => (sheet.cells[row]?.[column] ?? '').trim()).filter((t) => t !== '');
      const breaks = texts.map((t) => parsePriceBreak(t)).filter((n): n is number => n !== null);
      return texts.length >= 2 && breaks.length >= texts.length * 0.8 && new Set(breaks).size >= 2;
    },
  };
}

/**
 * Moves columns whose cells contradict their header: a 1..n run under `Item`, `Ref` or `PO Ref` is line numbering;
 * a column of unique codes headed `Item` or `Article` is the SKU when another column holds the words; a `Unit`
 * column of decimal numbers is a price.
 */
function settleRolesByContent(byKind: Map<ColumnKind, { column: number; cls: ColumnClass }[]>, content: TableContent) {
  const take = (kind: ColumnKind, keep: (column: number) => boolean) => {
    const found = byKind.get(kind) ?? [];
    const moved = found.filter((f) => !keep(f.column));
    byKind.set(
      kind,
      found.filter((f) => keep(f.column)),
    );
    return moved;
  };
  const numbering = [
    ...take('sku', (c) => !content.profile(c).lineNumbering),
    ...take('description', (c) => !content.profile(c).lineNumbering),
  ];
  byKind.set('index', [...(byKind.get('index') ?? []), ...numbering]);

  const words = (byKind.get('description') ?? []).filter((d) => isWordy(content.profile(d.column)));
  if ((byKind.get('sku') ?? []).length === 0 && words.length > 0) {
    const codes = take('description', (c) => skuScore(content.profile(c)) < 0.8 || words.some((w) => w.column === c));
    byKind.set('sku', codes);
  }
  if ((byKind.get('unitPrice') ?? []).length === 0) {
    const prices = take('unit', (c) => {
      const p = content.profile(c);
      return !(p.numeric >= 0.8 && p.integers < 0.9);
    });
    byKind.set('unitPrice', prices);
  }
}

/** With a total column, the open quantity or price role goes to the number columns whose product is the total. */
function fillQuantityAndPrice(mapping: ColumnMapping, content: TableContent, columns: number[]): void {
  if (mapping.total === null || (mapping.quantity !== null && mapping.unitPrice !== null)) return;
  if (mapping.sizes.length > 0 || mapping.tiers.length > 0) return;
  const taken = new Set<number | null>([mapping.sku, mapping.description, mapping.color, mapping.size, mapping.total]);
  const [low, high] = [Math.min(...columns), mapping.total];
  const open = columns.filter((c) => c >= low && c <= high && !taken.has(c) && c !== mapping.discount);
  const pair = findQuantityAndPrice(content.profile(mapping.total), open.map(content.profile), mapping);
  if (!pair) return;
  mapping.quantity ??= pair.quantity;
  mapping.unitPrice ??= pair.unitPrice;
}

function signatureOf(mapping: ColumnMapping): string {
  return JSON.stringify([
    mapping.sku,
    mapping.description,
    mapping.quantity,
    mapping.unitPrice,
    mapping.total,
    mapping.tiers.map((t) => `${t.column}:${t.minQty}`),
    mapping.sizes.map((s) => `${s.column}:${s.label}`),
  ]);
}

export interface HeaderScan {
  tables: ItemTableHeader[];
  /** 0-based rows that repeat a table's header further down (page breaks): skipped, not new tables. */
  repeatedHeaderRows: Set<number>;
}

/**
 * Every item table on the sheet, top to bottom. A row that maps the same columns as the table above it is that
 * table's header repeated (printed quotes repeat it on every page); a row that maps them differently starts a new
 * table (a second section with its own columns).
 */
export function findItemTables(sheet: SheetGrid, scanner: HeaderScanner = createScanner()): HeaderScan {
  const columns = visibleColumns(sheet);
  const candidates: RowScore[] = [];
  for (let row = 0; row < sheet.rowCount; row++) {
    if (sheet.hiddenRows.has(row) || !couldBeHeader(sheet, row, columns, scanner)) continue;
    const score = scoreRow(sheet, row, columns, scanner);
    if (score.qualifies) candidates.push(score);
  }

  const tables: ItemTableHeader[] = [];
  const repeatedHeaderRows = new Set<number>();
  let coveredUntil = -1;
  for (let i = 0; i < candidates.length; i++) {
    const first = candidates[i];
    if (!first || first.row <= coveredUntil) continue;
    // Neighbouring qualifying rows are one header written over two rows: build it around the stronger one.
    let main = first;
    for (let j = i + 1; j < candidates.length; j++) {
      const next = candidates[j];
      if (!next || next.row > first.row + 1) break;
      if (next.score > main.score) main = next;
    }
    const header = buildHeader(sheet, main, columns, scanner);
    if (!header) continue;
    coveredUntil = header.lastRow;
    const previous = tables.at(-1);
    if (previous && previous.signature === header.signature) {
      for (let row = header.firstRow; row <= header.lastRow; row++) repeatedHeaderRows.add(row);
    } else {
      tables.push(header);
    }
  }
  return { tables, repeatedHeaderRows };
}
