// The words around an item table: who the supplier is, and the terms a buyer negotiates on (payment, lead time,
// currency, incoterm, MOQ, validity). They come as "Label: value" in one cell, a label cell with its value to the
// right, or a sentence in the notes. Everything else a person would read there is kept as a note, word for word.
import { mentionsPaymentTerms } from '../commerce/payment-terms.js';
import { currencyIn, parseNumber } from './numbers.js';
import { EMPTY_TERMS, type QuotationTerms, type SheetGrid } from './types.js';
import { anyOf, wholeOf } from './regex-words.js';

/** One piece of text outside the item table: a sentence, or a label with its value. */
export interface TextUnit {
  /** 0-based. */
  row: number;
  column: number;
  label: string | null;
  value: string;
  /** The text as a person reads it: the cell itself, or "label: value" when they came from two cells. */
  text: string;
}

export interface SheetMetadata {
  supplierName: string | null;
  terms: QuotationTerms;
  notes: string[];
}

export interface MetadataOptions {
  /** 0-based rows above the first item table (the title block), where the supplier's own name usually sits. */
  titleRows: number;
  /** The buyer's own names (e.g. the brand), which a quote names in "To:" lines and must never be the supplier. */
  buyerNames?: string[];
}

type LabelKind =
  | 'payment'
  | 'leadTime'
  | 'currency'
  | 'incoterm'
  | 'port'
  | 'moq'
  | 'validity'
  | 'supplier'
  | 'buyer'
  | 'date'
  | 'contact'
  | 'remarks';

// English and Chinese first; then German, Spanish, Portuguese, French and Turkish, the other languages our suppliers
// write terms in (bilingual labels such as "Pagamento / Payment" are also tried half by half).
const LABELS: [LabelKind, RegExp][] = [
  [
    'payment',
    wholeOf([
      String.raw`payment(?:\s*terms?)?|terms?\s*of\s*payment|pay(?:ment)?\s*(?:term|method|` +
        String.raw`condition)s?|付款(?:方式|条件)?|结算方式`,
      String.raw`zahlung(?:sbedingungen)?|(?:forma|condiciones)\s*de\s*pago|pago|(?:condições\s*de\s*)?pagamento`,
      String.raw`(?:conditions\s*de\s*)?paiement|ödeme(?:\s*(?:şekli|koşulları))?`,
    ]),
  ],
  [
    'leadTime',
    wholeOf([
      String.raw`lead\s*-?\s*times?|delivery(?:\s*(?:time|date|lead\s*time))?|production\s*(?:time|lead\s*time)`,
      String.raw`ex-?factory(?:\s*date)?|shipment(?:\s*(?:date|time))?|交期|交货期|货期|lieferzeit|plazo\s*de\s*entrega`,
      String.raw`prazo\s*de\s*entrega|délai(?:\s*de\s*livraison)?|teslim(?:\s*süresi)?`,
    ]),
  ],
  ['currency', /^(?:currency|curr\.?|币种|货币|währung|moneda|moeda|devise|para\s*birimi)$/],
  [
    'incoterm',
    wholeOf([
      String.raw`incoterms?|trade\s*terms?|price\s*terms?|price\s*basis|terms?\s*of\s*(?:delivery|trade|price)`,
      String.raw`delivery\s*terms?|shipping\s*terms?|价格条款|贸易条款|lieferbedingungen|condiciones\s*de\s*entrega`,
      String.raw`condições\s*de\s*entrega|conditions\s*de\s*livraison|teslim\s*şekli`,
    ]),
  ],
  ['port', /^(?:port(?:\s*of\s*(?:loading|shipment|departure))?|loading\s*port|pol|fob\s*port|装运港|起运港)$/],
  ['moq', /^(?:moq|min(?:imum)?\.?\s*order(?:\s*q(?:uanti)?ty)?|起订量|最小起订量|mindestmenge)$/],
  [
    'validity',
    wholeOf([
      String.raw`validity|valid(?:ity)?\s*(?:period|until|till|through|for)?`,
      String.raw`(?:price|offer|quote|quotation)\s*valid(?:ity)?|有效期|报价有效期|gültigkeit|validez|validade|validité`,
      String.raw`geçerlilik(?:\s*süresi)?`,
    ]),
  ],
  [
    'supplier',
    wholeOf(
      [
        String.raw`supplier|vendor|seller|manufacturer|factory|exporter|shipper|from|供应商|卖方|` +
          String.raw`工厂|厂家|lieferant|proveedor`,
        String.raw`fornecedor|fournisseur|tedarikçi`,
      ],
      '',
      String.raw`(?:\s*name)?`,
    ),
  ],
  [
    'buyer',
    wholeOf([
      String.raw`to|attn|attention|customer|buyer|client|cliente|kunde|müşteri|messrs|bill\s*to|ship\s*to|consignee`,
      String.raw`sold\s*to|(?:quotation|quote|offer|prepared)\s*for|客户|买方|收件人`,
    ]),
  ],
  ['date', /^(?:date|quote\s*date|quotation\s*date|issued?|日期|报价日期|datum|fecha|data|tarih)$/],
  [
    'contact',
    wholeOf([
      String.raw`tel|telephone|phone|fax|e-?mail|mob(?:ile)?|cell|web(?:site)?|add(?:ress)?|` +
        String.raw`addr|contact(?:\s*person)?`,
      String.raw`sales(?:\s*rep)?|whatsapp|wechat|skype|电话|传真|邮箱|地址|联系人|手机`,
    ]),
  ],
  [
    'remarks',
    wholeOf([
      String.raw`remarks?|notes?|comments?|terms?(?:\s*(?:&|and)\s*conditions)?|conditions|备注|说明|条款|bemerkungen?`,
      String.raw`observaciones|observações|remarques?|notlar`,
    ]),
  ],
];

function normaliseLabel(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[.:：\s]+$/, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/** A label, and its halves when it is bilingual: "付款方式 Payment", "Pagamento / Payment", "币种\nCurrency". */
function labelVariants(text: string): string[] {
  const label = normaliseLabel(text);
  const variants = [label];
  for (const part of label.split(/\s*[/|]\s*/)) {
    variants.push(part.trim());
    variants.push(part.replace(/[\u3000-\u9fff\uff00-\uffef]+/g, ' ').trim());
    variants.push(part.replace(/[^\u3000-\u9fff]+/g, '').trim());
  }
  return [...new Set(variants)].filter((v) => v !== '');
}

export function labelKind(text: string): LabelKind | null {
  if (text.length > 60) return null;
  const variants = labelVariants(text);
  for (const [kind, pattern] of LABELS) if (variants.some((v) => v.length <= 40 && pattern.test(v))) return kind;
  return null;
}

/** "1. ", "2) ", "(3) ", "a. ", "- ", "• ": the numbering of a notes block, not part of what it says. */
const LIST_MARK = /^\s*(?:\(?\d{1,2}[.)]|\(\d{1,2}\)|[a-h][.)]|[-–•*·])\s+/i;

function cell(sheet: SheetGrid, row: number, column: number): string {
  if (sheet.hiddenRows.has(row) || sheet.hiddenColumns.has(column)) return '';
  return (sheet.cells[row]?.[column] ?? '').trim();
}

/**
 * The text units of one row, left to right: "Label: value" cells split, a label cell paired with the next cell, a
 * label alone on its row paired with the cell below it. Merged cells repeat their text: each text is taken once.
 */
export function textUnitsOfRow(sheet: SheetGrid, row: number, columns: readonly number[]): TextUnit[] {
  const cells: { column: number; text: string }[] = [];
  let previous = '';
  for (const column of columns) {
    const text = cell(sheet, row, column);
    if (text === '' || text === previous) continue;
    previous = text;
    // "Payment: 30% T/T | Lead time: 45 days | FOB Ningbo": terms written on one line are one cell each.
    for (const part of text.split(/\s+[|｜]\s+/)) if (part.trim() !== '') cells.push({ column, text: part.trim() });
  }
  const units: TextUnit[] = [];
  for (let i = 0; i < cells.length; i++) {
    const current = cells[i];
    if (!current) continue;
    // Only a short, plain label splits: "=HYPERLINK(\"http://…\")" or a sentence with a colon stays one text.
    const unnumbered = current.text.replace(LIST_MARK, '');
    const split = /^([\p{L}\p{N}][\p{L}\p{N} .&/'#()\n-]{0,39}?)\s*[:：]\s*([\s\S]+)$/u.exec(unnumbered);
    if (split?.[1] && split[2] && !/^https?$/i.test(split[1].trim())) {
      units.push({
        row,
        column: current.column,
        label: split[1].trim(),
        value: split[2].trim(),
        text: current.text,
      });
      continue;
    }
    const endsWithColon = /[:：]\s*$/.test(current.text);
    if (endsWithColon || labelKind(current.text) !== null) {
      const label = current.text.replace(/[:：]\s*$/, '').trim();
      const next = cells[i + 1];
      if (next && labelKind(next.text) === null) {
        units.push({ row, column: current.column, label, value: next.text, text: `${label}: ${next.text}` });
        i++;
        continue;
      }
      if (!next && cells.length === 1) {
        const below = cell(sheet, row + 1, current.column);
        if (below !== '' && labelKind(below) === null && labelKind(current.text) !== 'remarks') {
          units.push({ row, column: current.column, label, value: below, text: `${label}: ${below}` });
          continue;
        }
      }
      units.push({ row, column: current.column, label, value: '', text: current.text });
      continue;
    }
    const next = cells[i + 1];
    if (cells.length === 2 && i === 0 && next && isShortLabel(current.text)) {
      // Two cells on a row read as a label and its value: "Total value (all sheets) | USD 164,875.88".
      units.push({
        row,
        column: current.column,
        label: current.text,
        value: next.text,
        text: `${current.text}: ${next.text}`,
      });
      break;
    }
    units.push({ row, column: current.column, label: null, value: current.text, text: current.text });
  }
  return units;
}

function isShortLabel(text: string): boolean {
  return text.length <= 40 && /\p{L}/u.test(text) && !/[.!?]$/.test(text) && text.split(/\s+/).length <= 5;
}

/** Days in "45 days", "6 weeks" (42), "2 months" (60), "30-35 days" (35). */
export function parseDays(text: string): number | null {
  const normal = text.normalize('NFKC').toLowerCase();
  const unit =
    String.raw`(?:working\s*|business\s*|calendar\s*|natural\s*|clear\s*)?(days?|d\b|weeks?|wks?|` +
    String.raw`w\b|months?|mos?\b|天|日|周|星期|个月|月|` +
    // German, Spanish, Portuguese, French and Vietnamese: "6 Wochen", "30 días", "45 ngày", "2 tháng".
    String.raw`tage?\b|wochen|woche|monate?\b|d[ií]as?|semanas?|mes(?:es)?\b|meses|jours?|semaines?|mois|` +
    String.raw`ngày|tuần|tháng)`;
  // A range is a promise no earlier than its upper bound: a buyer planning a delivery must take the later date.
  const range = new RegExp(String.raw`(\d+(?:\.\d+)?)\s*(?:-|–|~|to|至|到)\s*(\d+(?:\.\d+)?)\s*${unit}`).exec(normal);
  const single = new RegExp(String.raw`(\d+(?:\.\d+)?)\s*${unit}`).exec(normal);
  const amount = range ? Number(range[2]) : single ? Number(single[1]) : null;
  const word = range ? range[3] : single?.[2];
  if (amount === null || !word) return null;
  const perUnit = /^(?:w|weeks?|wks?|周|星期|wochen?|woche|semanas?|semaines?|tuần)$/.test(word)
    ? 7
    : /^(?:months?|mos?|个月|月|monate?|mes(?:es)?|mois|tháng)$/.test(word)
      ? 30
      : 1;
  const days = Math.round(amount * perUnit);
  return days > 0 && days <= 730 ? days : null;
}

const INCOTERM = /\b(EXW|FCA|FAS|FOB|CFR|CNF|C&F|CIF|CPT|CIP|DAP|DPU|DAT|DDP|DDU)\b\.?\s*[:(-]?\s*([^,;()/\n]*)/i;
const NOT_A_PLACE = wholeOf(
  [
    String.raw`price|prices|pricing|terms?|basis|port|cost|costs|value|only|incoterms?|and|` +
      String.raw`or|the|to|from|per|is|are|usd`,
    String.raw`eur|rmb|cny|us\$|quotation|quote|unit|total|amount|shipment|shipping|delivery|factory|\d.*`,
  ],
  'i',
);
/** Small words inside place names: "Vila Nova de Famalicão", "Frankfurt am Main". */
const PLACE_JOINERS = /^(?:de|do|da|dos|das|del|della|di|du|des|la|le|el|am|an|upon|on|sur|en|van|von)$/;

/** An incoterm with its named place as written: "FOB Ningbo", "FOB Ho Chi Minh City", "EXW" (no place given). */
export function parseIncoterm(text: string): string | null {
  const match = INCOTERM.exec(text.normalize('NFC'));
  if (!match?.[1]) return null;
  const written = match[1].toUpperCase();
  const term = written === 'C&F' || written === 'CNF' ? 'CFR' : written;
  const place: string[] = [];
  const words = (match[2] ?? '').trim().split(/\s+/).slice(0, 6);
  for (const raw of words) {
    const word = raw.replace(/[.:]+$/, '');
    // A place is capitalised words ("Ningbo", "Hong Kong") with the small joiners of place names between them;
    // a lower-case word after the term is running text ("FOB prices", "EXW factory").
    if (word === '' || NOT_A_PLACE.test(word)) break;
    if (!/^\p{Lu}/u.test(word) && !(PLACE_JOINERS.test(word) && place.length > 0)) break;
    place.push(word);
    if (raw.endsWith('.')) break;
  }
  while (place.length && PLACE_JOINERS.test(place.at(-1) ?? '')) place.pop();
  return place.length ? `${term} ${place.join(' ')}` : term;
}

/** "MOQ 300", "Minimum order: 1,000", "起订量 500"; group 1 the number, group 2 a "k". */
const MOQ_AFTER = new RegExp(
  String.raw`(?:\bMOQ\b|\bmin(?:imum)?\.?\s*order(?:\s*q(?:uanti)?ty)?|起订量)` +
    String.raw`\s*(?:[:：]|is|of|=)?\s*([\d][\d,.\s]*\d|\d)\s*(k\b)?`,
  'i',
);
/** "1,200 pcs MOQ": the number before the word. */
const MOQ_BEFORE = /([\d][\d,.]*)\s*(?:pcs|pieces|units)?\s*(?:\/\s*\w+\s*)?(?:MOQ|minimum)/i;

const MAX_MOQ = 1e9;

/** The minimum order quantity a text states: "MOQ 300 pcs/style" → 300, "Minimum order: 1,000 pcs" → 1000. */
export function parseMoq(text: string): number | null {
  const normal = text.normalize('NFKC');
  const after = MOQ_AFTER.exec(normal);
  const before = MOQ_BEFORE.exec(normal);
  const digits = after?.[1] ?? before?.[1];
  if (!digits) return null;
  const value = parseNumber(digits.trim());
  if (value === null) return null;
  const moq = value * (after?.[2] ? 1000 : 1);
  // Days are capped at two years; a minimum order of a billion pieces is as much a misread, and overflows its column.
  return Number.isInteger(moq) && moq > 0 && moq < MAX_MOQ ? moq : null;
}

function parseIsoDate(text: string): Date | null {
  const match = /(\d{4})-(\d{2})-(\d{2})/.exec(text);
  if (!match) return null;
  const date = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
  return Number.isNaN(date.getTime()) ? null : date;
}

/** "Prices valid 30 days" → 30; "validity: 2 weeks" → 14; "valid until 2025-02-05" with a quote date → the gap. */
export function parseValidityDays(text: string, quoteDate: Date | null = null): number | null {
  const days = parseDays(text);
  if (days !== null) return days;
  const until = parseIsoDate(text);
  if (!until || !quoteDate) return null;
  const gap = Math.round((until.getTime() - quoteDate.getTime()) / 86_400_000);
  return gap > 0 && gap <= 730 ? gap : null;
}

const STRONG_COMPANY = anyOf(
  [
    String.raw`\b(?:co\.?\s*,?\s*ltd\.?|company|limited|ltd\.?|inc\.?|incorporated|llc|l\.l\.c\.?|` +
      String.raw`gmbh|s\.a\.|s\.r\.l\.?|s\.p\.a\.?|b\.v\.|pty|plc|corp\.?|corporation|pvt|jsc|` +
      String.raw`lda\.?|ltda\.?|sdn\.?\s*bhd\.?|a\.ş\.?|san\.\s*ve\s*tic\.?|s\.a\.s\.?)(?=\s|` +
      String.raw`$|[.,)·|])`,
    String.raw`^(?:pt|cv)\.?\s+\p{Lu}|有限公司|股份|公司`,
  ],
  'iu',
);
const WEAK_COMPANY = anyOf(
  [
    String.raw`\b(?:factory|garments?|textiles?|tekstil|têxteis|textil|industrial|industries|` +
      String.raw`industry|trading|apparel|manufactur\w*|enterprises?|group|knitting|knitwear|` +
      String.raw`sportswear|clothing|fashion|confecções|konfeksiyon)\b`,
    String.raw`厂|集团|服饰|服装|纺织|制衣`,
  ],
  'iu',
);
const QUOTE_WORDS = /\b(?:quotation|quote|price\s*list|proforma|invoice|offer|sheet)\b|报价/i;
const ADDRESS = anyOf(
  [
    String.raw`@|www\.|https?:`,
    String.raw`\b(?:road|street|avenue|district|province|zone|building|floor|room|tel|fax|jalan|` +
      String.raw`rua|cadde|sokak|plot|lot)\b`,
    String.raw`\b(?:rd|st|ave|jl|bldg)\.(?=\s|$)|\bno\.\s*\d|\bp\.o\.|路|号|区|省|市`,
  ],
  'i',
);

/** How much a text looks like a company name: 2 for "… Co., Ltd.", 1 for "… Garments", 0 otherwise. */
export function companyStrength(text: string): number {
  if (text.length > 80 || ADDRESS.test(text)) return 0;
  if (STRONG_COMPANY.test(text)) return 2;
  if (WEAK_COMPANY.test(text) && !QUOTE_WORDS.test(text)) return 1;
  return 0;
}

/** How far down a sheet a letterhead (name, address, contact lines) reaches. */
const LETTERHEAD_ROWS = 10;

/** A document title ("QUOTATION", "FULL RANGE QUOTATION", "报价单 QUOTATION"): it tells a buyer nothing new. */
const TITLE = new RegExp(
  String.raw`^(?:[\p{L} &/]{0,30}\s)?` +
    String.raw`(?:quotation|quote|price\s*(?:list|quotation|offer)|proforma(?:\s*invoice)?|offer|报价单|报价表|报\s*价\s*单)` +
    String.raw`(?:\s*(?:sheet|form))?$`,
  'iu',
);

const LEAD_WORDS =
  /lead\s*-?\s*time|delivery|production|ex-?factory|ship(?:ment|ping)?\s*(?:date|time|within)|交期|交货|货期/i;
const VALIDITY_WORDS = /\bvalid(?:ity)?\b|有效/i;
const MOQ_WORDS = /\bMOQ\b|\bmin(?:imum)?\.?\s*order\b|起订/i;

/** Days stated after a keyword, so "lead time 45 days, prices valid 30 days" gives each its own number. */
function daysAfter(text: string, keyword: RegExp): number | null {
  const at = keyword.exec(text);
  return at ? parseDays(text.slice(at.index)) : null;
}

export function extractMetadata(unitsByRow: TextUnit[][], options: MetadataOptions): SheetMetadata {
  const units = unitsByRow.flat();
  const buyerNames = (options.buyerNames ?? []).map((name) => name.toLowerCase()).filter((name) => name !== '');
  const terms: QuotationTerms = { ...EMPTY_TERMS };
  const consumed = new Set<TextUnit>();
  // Each label is classified once: every term below filters all units by kind, and a sheet at the cell limit has
  // hundreds of thousands of them (classifying each ten times took half a minute).
  const kinds = new Map<string, LabelKind | null>();
  const kindOf = (u: TextUnit): LabelKind | null => {
    if (u.label === null) return null;
    let kind = kinds.get(u.label);
    if (kind === undefined) {
      kind = labelKind(u.label);
      kinds.set(u.label, kind);
    }
    return kind;
  };
  const byKind = new Map<LabelKind | null, TextUnit[]>();
  for (const unit of units) {
    const kind = kindOf(unit);
    const list = byKind.get(kind);
    if (list) list.push(unit);
    else byKind.set(kind, [unit]);
  }
  const labelled = (kind: LabelKind) => byKind.get(kind) ?? [];
  const firstOf = <T>(candidates: TextUnit[], read: (u: TextUnit) => T | null, consume = true): T | null => {
    for (const unit of candidates) {
      const value = read(unit);
      if (value === null) continue;
      if (consume) consumed.add(unit);
      return value;
    }
    return null;
  };
  const text = (u: TextUnit) => u.text;
  const unlabelled = units.filter((u) => kindOf(u) === null);

  const quoteDate = firstOf(labelled('date'), (u) => parseIsoDate(u.value), false);

  terms.paymentTerms =
    firstOf(labelled('payment'), (u) => (u.value !== '' ? u.value.replace(/\.$/, '') : null)) ??
    firstOf(unlabelled, (u) => {
      const sentence = /^(?:payment(?:\s*terms?)?|terms\s*of\s*payment|付款方式)\s*[-–]?\s*(.+)$/i.exec(text(u));
      return sentence?.[1]?.replace(/\.$/, '') ?? null;
    }) ??
    firstOf(
      unlabelled,
      (u) => (mentionsPaymentTerms(u.value) && !VALIDITY_WORDS.test(u.value) ? text(u) : null),
      false,
    );

  terms.leadTimeDays =
    firstOf(labelled('leadTime'), (u) => parseDays(u.value)) ??
    firstOf(unlabelled, (u) => daysAfter(text(u), LEAD_WORDS), false);

  terms.currency =
    firstOf(labelled('currency'), (u) => currencyIn(u.value)) ??
    firstOf(
      unlabelled,
      (u) => {
        // "All prices in USD", "Price FOB Jakarta, in USD.", "FOB Guangzhou, USD."
        const stated = /\bin\s+(US\s*dollars?|\S+)/i.exec(text(u));
        const inCurrency = stated?.[1] ? currencyIn(stated[1]) : null;
        if (inCurrency) return inCurrency;
        const short = text(u).length <= 40 && (parseIncoterm(text(u)) !== null || /\bprices?\b/i.test(text(u)));
        return short ? currencyIn(text(u)) : null;
      },
      false,
    ) ??
    // "Price terms: FOB Hai Phong, USD": the price basis names the currency too.
    firstOf(labelled('incoterm'), (u) => currencyIn(u.value));

  const incoterm =
    firstOf(labelled('incoterm'), (u) => parseIncoterm(u.value)) ??
    firstOf(units, (u) => parseIncoterm(text(u)), false);
  const port = firstOf(labelled('port'), (u) => (u.value !== '' && u.value.length <= 40 ? u.value : null));
  // "FOB" in one place and "Port of loading: Ningbo" in another are one term: FOB Ningbo.
  terms.incoterm = incoterm && port && !incoterm.includes(' ') ? `${incoterm} ${port}` : incoterm;

  terms.moq =
    firstOf(labelled('moq'), (u) => parseMoq(`MOQ ${u.value}`)) ??
    firstOf(units, (u) => (MOQ_WORDS.test(text(u)) ? parseMoq(text(u)) : null), false);

  terms.validityDays =
    firstOf(labelled('validity'), (u) => parseValidityDays(u.value, quoteDate)) ??
    firstOf(
      units,
      (u) => {
        const at = VALIDITY_WORDS.exec(text(u));
        return at ? parseValidityDays(text(u).slice(at.index), quoteDate) : null;
      },
      false,
    );

  const isBuyer = (value: string) => buyerNames.some((name) => value.toLowerCase().includes(name));
  const supplierName =
    firstOf(labelled('supplier'), (u) => {
      const kind = normaliseLabel(u.label ?? '');
      if (u.value === '' || isBuyer(u.value) || ADDRESS.test(u.value)) return null;
      // "From:" is as often a person as a company: only a company-looking value counts.
      return kind === 'from' && companyStrength(u.value) === 0 ? null : u.value;
    }) ?? pickSupplierFromTitle(units, options.titleRows, isBuyer, consumed);

  const notes: string[] = [];
  // A Set beside the list: a sheet 16,384 columns wide has hundreds of thousands of units, and `notes.includes` on
  // each made reading one such sheet take half a minute.
  const noted = new Set<string>();
  for (const unit of units) {
    if (consumed.has(unit)) continue;
    const kind = kindOf(unit);
    if (kind === 'buyer' || kind === 'contact' || kind === 'supplier') continue;
    if (unit.value === '' && (kind !== null || unit.label !== null)) continue;
    const note = text(unit);
    if (TITLE.test(note.trim()) || note === supplierName) continue;
    // The letterhead's address and its other spellings of the supplier's name are contact details, not notes.
    const letterhead = unit.row < Math.min(options.titleRows, LETTERHEAD_ROWS) && unit.label === null;
    if (letterhead && !note.startsWith('=') && (ADDRESS.test(note) || companyStrength(note) === 2)) continue;
    if (noted.has(note)) continue;
    noted.add(note);
    notes.push(note);
  }
  return { supplierName, terms, notes };
}

/** The part of a letterhead line that is the company: "Guangzhou Sunrise Co., Ltd. · Quotation SR-25" → the name. */
function companyPart(text: string): { name: string; strength: number } {
  let best = { name: text, strength: companyStrength(text) };
  for (const part of text.split(/\s+[·|•–—]\s+|\s+-\s+|\s{3,}/)) {
    const strength = companyStrength(part.trim());
    if (strength > 0 && (strength > best.strength || best.name === text)) best = { name: part.trim(), strength };
  }
  return best;
}

function pickSupplierFromTitle(
  units: TextUnit[],
  titleRows: number,
  isBuyer: (value: string) => boolean,
  consumed: Set<TextUnit>,
): string | null {
  let best: { unit: TextUnit; name: string; rank: number } | null = null;
  for (const unit of units) {
    if (unit.row >= titleRows || unit.label !== null || isBuyer(unit.value)) continue;
    const { name, strength } = companyPart(unit.value);
    if (strength === 0) continue;
    // A registered name ("… Co., Ltd.") beats a trading style ("… Garments"); a bilingual letterhead gives the name
    // twice and the buyer reads the Latin one; among equals the top-most wins, the letterhead being above the rest.
    const rank = strength * 2 + (/\p{Script=Latin}/u.test(name) ? 1 : 0);
    if (!best || rank > best.rank) best = { unit, name, rank };
  }
  if (!best) return null;
  consumed.add(best.unit);
  return best.name.replace(/\s+/g, ' ').trim();
}
