// Numbers as suppliers write them. The reader gives real numeric cells in canonical form ("1234.5"), but quotes are
// full of numbers typed as text: "US$ 1,234.00", "12,50 €", "1.234,50", "¥85.00", "1,200 pcs", "(12.50)", "5%".
// These functions read one cell's text and return null for anything they cannot read with certainty — a wrong number
// is worse than a missing one, because a missing one is flagged for a human.

export interface NumberOptions {
  /**
   * The sheet's decimal separator when the caller has seen unambiguous numbers elsewhere on it. Only settles the one
   * ambiguous shape, a single separator followed by exactly three digits ("1.234", "1,234"); without it, "1,234" is
   * read as thousands (the English convention most supplier quotes use) and "1.234" as a decimal (canonical form).
   */
  decimal?: '.' | ',';
}

export interface Money {
  amount: number;
  /** ISO 4217 code, or null when the text carries no currency. */
  currency: string | null;
}

export interface PercentOptions {
  /** The cell sits in a column headed "%" or "discount", so a bare 5 means 5 %. */
  percentColumn?: boolean;
  /** Forces how a number without "%" reads, when the caller has looked at the whole column. */
  bare?: 'fraction' | 'points';
}

/** Currency marks, longest first so "US$" wins over "$" and "HK$" over "$". Values are ISO 4217 codes. */
const CURRENCY_SYMBOLS: [string, string][] = [
  ['U.S.$', 'USD'],
  ['US$', 'USD'],
  ['HK$', 'HKD'],
  ['NT$', 'TWD'],
  ['NZ$', 'NZD'],
  ['AU$', 'AUD'],
  ['CA$', 'CAD'],
  ['MX$', 'MXN'],
  ['CN¥', 'CNY'],
  ['JP¥', 'JPY'],
  ['A$', 'AUD'],
  ['C$', 'CAD'],
  ['S$', 'SGD'],
  ['R$', 'BRL'],
  ['$', 'USD'],
  ['€', 'EUR'],
  ['£', 'GBP'],
  // Parley's suppliers are mostly Chinese factories: a bare ¥ on their quotes is renminbi, not yen.
  ['¥', 'CNY'],
  // Chinese currency names ("币种 Currency: 美元 USD"); the bare 元 below would otherwise read every one as renminbi.
  ['美元', 'USD'],
  ['美金', 'USD'],
  ['欧元', 'EUR'],
  ['英镑', 'GBP'],
  ['港币', 'HKD'],
  ['日元', 'JPY'],
  ['人民币', 'CNY'],
  ['元', 'CNY'],
  ['円', 'JPY'],
  ['₹', 'INR'],
  ['₩', 'KRW'],
  ['₫', 'VND'],
  ['৳', 'BDT'],
  ['₺', 'TRY'],
  ['₱', 'PHP'],
  ['฿', 'THB'],
];

/** Words that name a currency, matched whole and case-insensitively. */
const CURRENCY_WORDS: Record<string, string> = {
  usd: 'USD',
  usd$: 'USD',
  'us dollar': 'USD',
  'us dollars': 'USD',
  dollars: 'USD',
  eur: 'EUR',
  euro: 'EUR',
  euros: 'EUR',
  gbp: 'GBP',
  rmb: 'CNY',
  cny: 'CNY',
  hkd: 'HKD',
  jpy: 'JPY',
  chf: 'CHF',
  cad: 'CAD',
  aud: 'AUD',
  nzd: 'NZD',
  sgd: 'SGD',
  twd: 'TWD',
  inr: 'INR',
  rs: 'INR',
  krw: 'KRW',
  vnd: 'VND',
  bdt: 'BDT',
  pkr: 'PKR',
  lkr: 'LKR',
  khr: 'KHR',
  idr: 'IDR',
  myr: 'MYR',
  thb: 'THB',
  php: 'PHP',
  try: 'TRY',
  sek: 'SEK',
  nok: 'NOK',
  dkk: 'DKK',
  pln: 'PLN',
  czk: 'CZK',
  huf: 'HUF',
  mxn: 'MXN',
  brl: 'BRL',
};

/** Units written after a quantity or a price ("1,200 pcs", "300 PCS/style", "12.50 per pc"). */
const UNIT_WORDS = new Set([
  'pc',
  'pcs',
  'piece',
  'pieces',
  'unit',
  'units',
  'set',
  'sets',
  'pair',
  'pairs',
  'pr',
  'prs',
  'ea',
  'each',
  'ctn',
  'ctns',
  'carton',
  'cartons',
  'dz',
  'doz',
  'dozen',
  'kg',
  'kgs',
  'g',
  'm',
  'mtr',
  'mtrs',
  'meter',
  'meters',
  'metre',
  'metres',
  'yd',
  'yds',
  'yard',
  'yards',
  'roll',
  'rolls',
  'pk',
  'pack',
  'packs',
  'bag',
  'bags',
  'box',
  'boxes',
  'lot',
  'lots',
  'style',
  'styles',
  'color',
  'colors',
  'colour',
  'colours',
  'size',
  'sizes',
  'order',
  'design',
  'sku',
  'skus',
  // Portuguese/Spanish "un."/"uds", German "Stk", Italian "pz", Turkish "adet", French "pièces".
  'un',
  'und',
  'unid',
  'uds',
  'stk',
  'pz',
  'pzs',
  'adet',
  'pièces',
  'pieza',
  'piezas',
  '件',
  '个',
  '套',
  '双',
  '条',
  '只',
  '打',
  '米',
  '码',
]);

const EMPTY_MARKS = /^(?:-+|—|–|n\/?a|nil|none|tba|tbc|tbd|\?+)$/i;

function normalise(text: string): string {
  if (/^[\x20-\x7e]*$/.test(text)) return text.trim();
  // NFKC folds full-width digits and punctuation ("１２，５０", "￥") into their ASCII forms; the minus sign and the
  // various spaces Excel and Word put in numbers become plain ones.
  return text
    .normalize('NFKC')
    .replace(/[\u2212\u2012\u2013\uFE63\uFF0D]/g, '-')
    .replace(/[\u00A0\u2007\u2009\u202F]/g, ' ')
    .trim();
}

/** Splits a currency mark off either end of `text`. */
function takeCurrency(text: string): { rest: string; currency: string | null } {
  let rest = text.trim();
  let currency: string | null = null;
  const found = (code: string) => {
    if (currency !== null && currency !== code) return false;
    currency = code;
    return true;
  };

  for (let pass = 0; pass < 2; pass++) {
    let changed = false;
    const upper = rest.toUpperCase();
    for (const [symbol, code] of CURRENCY_SYMBOLS) {
      if (upper.startsWith(symbol)) {
        if (!found(code)) return { rest: text, currency: null };
        rest = rest.slice(symbol.length).trim();
        changed = true;
        break;
      }
      if (upper.endsWith(symbol)) {
        if (!found(code)) return { rest: text, currency: null };
        rest = rest.slice(0, rest.length - symbol.length).trim();
        changed = true;
        break;
      }
    }
    const leading = /^([a-z][a-z .$]*?)\s*(?=[-+(\d.,])/i.exec(rest);
    const leadingCode = leading?.[1] ? CURRENCY_WORDS[leading[1].toLowerCase().trim()] : undefined;
    if (leading?.[1] && leadingCode) {
      if (!found(leadingCode)) return { rest: text, currency: null };
      rest = rest.slice(leading[0].length).trim();
      changed = true;
    }
    const trailing = /(?<=[\d.,)])\s*([a-z][a-z .$]*)$/i.exec(rest);
    const trailingCode = trailing?.[1] ? CURRENCY_WORDS[trailing[1].toLowerCase().trim()] : undefined;
    if (trailing?.[1] && trailingCode) {
      if (!found(trailingCode)) return { rest: text, currency: null };
      rest = rest.slice(0, rest.length - trailing[0].length).trim();
      changed = true;
    }
    if (!changed) break;
  }
  return { rest, currency };
}

/** Drops trailing units one word at a time: "1,200 pcs", "300 PCS/style", "12.50 USD/pc", "8.20 per piece". */
function dropUnits(text: string): string {
  let rest = text;
  for (;;) {
    const match = /(?:\s*(?:\/|\bper\s+)?\s*([a-z]+|[\u4e00-\u9fff])\.?)$/i.exec(rest);
    if (!match?.[1] || !UNIT_WORDS.has(match[1].toLowerCase())) return rest;
    const before = rest.slice(0, match.index).trim();
    if (before === '') return rest;
    rest = before;
  }
}

const SPACE_GROUPED = /^\d{1,3}(?:[ '’]\d{3})+(?:[.,]\d+)?$/;

/** Reads digits with at most one kind of grouping and one decimal mark; null when the shape is not a number. */
function parseDigits(text: string, options: NumberOptions): number | null {
  let digits = text;
  if (/[ '’]/.test(digits)) {
    if (!SPACE_GROUPED.test(digits)) return null;
    digits = digits.replace(/[ '’]/g, '');
  }
  if (/^\d+(?:\.\d+)?e[+-]?\d+$/i.test(digits)) return Number(digits);
  if (/^\d+$/.test(digits)) return Number(digits);
  if (/^\d*\.\d+$|^\d+\.$/.test(digits)) {
    // One dot and three digits after it: "1.234" is 1234 on a sheet that writes decimals with commas.
    if (options.decimal === ',' && /^\d{1,3}\.\d{3}$/.test(digits)) return Number(digits.replace('.', ''));
    return Number(digits);
  }
  if (/^\d{1,3}(?:\.\d{3}){2,}$/.test(digits)) return Number(digits.replace(/\./g, ''));
  if (/^\d{1,3}(?:,\d{3})+$/.test(digits)) {
    const single = digits.indexOf(',') === digits.lastIndexOf(',');
    // "0,500" and, on a comma-decimal sheet, "12,500" are decimals; otherwise commas group thousands.
    if (single && (digits.startsWith('0,') || options.decimal === ',')) return Number(digits.replace(',', '.'));
    return Number(digits.replace(/,/g, ''));
  }
  if (/^\d*,\d+$/.test(digits)) return Number(digits.replace(',', '.'));
  if (/^\d{1,3}(?:,\d{3})*\.\d+$/.test(digits)) return Number(digits.replace(/,/g, ''));
  if (/^\d{1,3}(?:\.\d{3})*,\d+$/.test(digits)) return Number(digits.replace(/\./g, '').replace(',', '.'));
  return null;
}

/** A signed number with its parentheses or minus signs; returns null when anything else is left. */
function parseSigned(text: string, options: NumberOptions): number | null {
  let body = text.trim();
  let negative = false;
  // Accountants write negatives in parentheses: "(12.50)".
  const parenthesised = /^\((.*)\)$/.exec(body);
  if (parenthesised?.[1] !== undefined) {
    negative = true;
    body = parenthesised[1].trim();
  }
  if (/^[-+]/.test(body)) {
    if (body.startsWith('-')) negative = !negative;
    body = body.slice(1).trim();
  } else if (/\d-$/.test(body)) {
    negative = !negative;
    body = body.slice(0, -1).trim();
  }
  const value = parseDigits(body, options);
  if (value === null || !Number.isFinite(value)) return null;
  return negative && value !== 0 ? -value : value;
}

const CANONICAL = /^-?\d+(?:\.\d+)?$/;

/** Every word a number cell may carry: currency names and marks, units, "per". Anything else means it is text. */
const KNOWN_WORDS = new Set([
  ...Object.keys(CURRENCY_WORDS).flatMap((word) => word.replace(/\$/g, '').split(' ')),
  ...CURRENCY_SYMBOLS.flatMap(([symbol]) => symbol.toLowerCase().match(/[a-z]+|[\u4e00-\u9fff]/g) ?? []),
  ...UNIT_WORDS,
  'per',
  'e',
  'dollar',
]);

function onlyKnownWords(text: string): boolean {
  for (const word of text.toLowerCase().match(/[a-z\u00c0-\u024f]+|[\u4e00-\u9fff]/g) ?? []) {
    if (!KNOWN_WORDS.has(word)) return false;
  }
  return true;
}

/** Currency, sign and unit peeled off; null when the text is not one number. */
function parseAmount(text: string, options: NumberOptions): Money | null {
  // Most cells are the reader's canonical numbers: read them without the full treatment (a 3,000-line sheet has
  // tens of thousands), except "1.234", whose meaning depends on the sheet's decimal separator.
  if (CANONICAL.test(text) && !(options.decimal === ',' && /^-?\d{1,3}\.\d{3}$/.test(text))) {
    // Three hundred and nine digits make Infinity, which is no amount.
    const amount = Number(text);
    return Number.isFinite(amount) ? { amount, currency: null } : null;
  }
  let body = normalise(text).replace(/\*+$/, '').trim();
  if (body === '' || !/\d/.test(body) || body.includes('%') || !onlyKnownWords(body)) return null;
  let negative = false;
  // The sign may sit outside the currency ("-$12.50", "($12.50)") as well as inside it ("$-12.50", "$(12.50)").
  const parenthesised = /^\((.*)\)$/.exec(body);
  if (parenthesised?.[1] !== undefined) {
    negative = true;
    body = parenthesised[1].trim();
  }
  const minus = /^-\s*(?=\D)/.exec(body);
  if (minus) {
    negative = !negative;
    body = body.slice(minus[0].length);
  }
  const { rest, currency } = takeCurrency(dropUnits(body));
  const value = parseSigned(dropUnits(rest), options);
  if (value === null) return null;
  return { amount: negative && value !== 0 ? -value : value, currency };
}

/** The number a cell states, ignoring a currency mark or a unit around it; null for anything else. */
export function parseNumber(text: string, options: NumberOptions = {}): number | null {
  return parseAmount(text, options)?.amount ?? null;
}

/** An amount of money and its currency ("US$ 1,234.00" → 1234 USD; "12,50 €" → 12.5 EUR; "85.00" → 85, null). */
export function parseMoney(text: string, options: NumberOptions = {}): Money | null {
  return parseAmount(text, options);
}

/**
 * A percentage as a fraction: "5%" → 0.05, "0.05" → 0.05 (a percent-formatted cell comes from the reader as its
 * fraction), and "5" → 0.05 only when the column is headed % or discount — elsewhere a bare 5 could be anything.
 */
export function parsePercent(text: string, options: PercentOptions = {}): number | null {
  const clean = normalise(text);
  if (clean === '' || EMPTY_MARKS.test(clean)) return null;
  const marked = /^(.*?)\s*(?:%|％|pct\.?|percent|per\s*cent)\s*(?:off|disc\.?|discount)?$/i.exec(clean);
  if (marked?.[1] !== undefined) {
    const points = parseSigned(marked[1], {});
    return points === null ? null : round(points / 100, 6);
  }
  const chinese = /^(\d+(?:\.\d+)?)\s*折$/.exec(clean);
  if (chinese?.[1]) {
    // "9折" is Chinese for "pay 90 %", i.e. a 10 % discount; "85折" pays 85 %.
    const paid = Number(chinese[1]);
    const fractionPaid = paid >= 10 ? paid / 100 : paid / 10;
    return fractionPaid > 0 && fractionPaid <= 1 ? round(1 - fractionPaid, 6) : null;
  }
  const bare = parseSigned(clean, {});
  if (bare === null) return null;
  const mode = options.bare ?? (Math.abs(bare) <= 1 ? 'fraction' : options.percentColumn ? 'points' : null);
  if (mode === 'fraction') return bare;
  if (mode === 'points' && Math.abs(bare) <= 100) return round(bare / 100, 6);
  return null;
}

/** The ISO code a piece of text names, if it names exactly one currency ("Currency: US$" → USD). */
export function currencyIn(text: string): string | null {
  const clean = normalise(text);
  const found = new Set<string>();
  for (const word of clean.toLowerCase().match(/[a-z]+(?: dollars?)?/g) ?? []) {
    const code = CURRENCY_WORDS[word];
    // "rs" and "try" are ordinary words in running text; only count them where they stand for the currency.
    if (code && word !== 'rs' && word !== 'try' && word !== 'dollars') found.add(code);
  }
  for (const [symbol, code] of CURRENCY_SYMBOLS) {
    if (!clean.toUpperCase().includes(symbol.toUpperCase())) continue;
    // "$" also appears inside "US$" and "HK$": count it only where no longer mark explains it.
    const longer = CURRENCY_SYMBOLS.some(
      ([other]) => other.length > symbol.length && other.endsWith(symbol) && clean.toUpperCase().includes(other),
    );
    if (!longer) found.add(code);
  }
  return found.size === 1 ? ([...found][0] ?? null) : null;
}

export function round(value: number, places: number): number {
  const factor = 10 ** places;
  return Math.round((value + Number.EPSILON * Math.sign(value)) * factor) / factor;
}
