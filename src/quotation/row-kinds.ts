// What a row inside an item table is when it is not a product: a total, a charge, a section title. Each test looks at
// the row's label text only; the structurer combines them with what the row's number cells say.
import { normaliseHeader } from './header-detection.js';
import { anyOf } from './regex-words.js';

export type TotalKind = 'grand' | 'plain' | 'sub';

const SUBTOTAL = /\bsub[-\s]?totals?\b|小计|小結|zwischensumme|\bbase\s*imponible\b|tạm\s*tính|\bara\s*toplam/;
const GRAND_TOTAL = anyOf([
  String.raw`\bgrand\s*total|\b(?:overall|order|invoice|quotation)\s*total`,
  String.raw`\btotal\s*(?:amount|value|due|payable|order\s*value|invoice|fob|cif|exw|ddp|price|sum)\b`,
  String.raw`\btotal\s*\(?\s*(?:usd|eur|us\$|rmb|cny|gbp|hkd)\b|总计|总金额|合计金额|总价`,
  // German, Spanish, Portuguese and Vietnamese grand totals.
  String.raw`gesamtbetrag|gesamtsumme|endbetrag|rechnungsbetrag|\bimporte\s*total|\btotal\s*general|tổng\s*cộng`,
]);
/** The words a total's label may carry besides "total" itself, in the languages our suppliers write. */
const TOTAL_WORDS = anyOf(
  [
    String.raw`\b(?:grand|sub|totals?|ttl|sum|sheet|page|order|invoice|quotation|quote|net|` +
      String.raw`nett|gross|overall|amount|value|price|cost|due|payable|qty|quantity|pcs|fob|` +
      String.raw`cif|exw|ddp|usd|eur|gbp|rmb|cny|hkd|us|all|sheets|líquido|liquido|geral|gesamt|` +
      String.raw`summe|toplam|genel|zwischensumme|gesamtbetrag|gesamtsumme|endbetrag|rechnungsbetrag|betrag|` +
      String.raw`netto|brutto|base|imponible|importe|suma|general|ara)\b|tổng|cộng|tạm\s*tính`,
    String.raw`合计|总计|小计|小結|总金额|金额|总价|总额|数量`,
  ],
  'gu',
);

/** A cheap first look, so that the thousands of item rows skip the full test. */
const MAYBE_TOTAL = /total|ttl|sum|合计|总|小计|小結|betrag|imponible|tổng|tạm\s*tính/i;

export const mightBeTotal = (text: string) => MAYBE_TOTAL.test(text);
const ANY_TOTAL = /\btotals?\b|\bttl\b|合计|总额|^sum$|^summe$|^suma$|tổng\s*cộng/;

/**
 * Whether a label names a total row, and which: "Grand Total" and "Total (USD)" are grand, "Subtotal" is sub, a plain
 * "Total" or "Sheet total" is plain. Only short labels count: "Total Protection Jacket" is a product name (the caller
 * also checks that the row has no unit price).
 */
export function totalKind(text: string): TotalKind | null {
  if (!MAYBE_TOTAL.test(text)) return null;
  const label = normaliseHeader(text);
  if (label === '' || label.length > 40) return null;
  // "Total jackets" is a total; "Total Protection Shell" is a product that happens to start with the word.
  const otherWords = label.replace(TOTAL_WORDS, ' ').match(/[\p{L}]+/gu) ?? [];
  if (otherWords.length > 1) return null;
  if (SUBTOTAL.test(label)) return 'sub';
  if (GRAND_TOTAL.test(label)) return 'grand';
  if (ANY_TOTAL.test(label)) return 'plain';
  return null;
}

const CHARGE = anyOf([
  String.raw`\b(?:freight|shipping|courier|express\s*(?:fee|charge|cost)|postage|delivery\s*(?:fee|` +
    String.raw`charge|cost)s?|samples?|sampling|tooling|mou?lds?|set-?\s?up|packaging|packing\s*(?:fee|` +
    String.raw`charge|cost)s?|handling|bank\s*(?:charges?|fees?)|insurance|surcharges?|fees?|` +
    String.raw`charges?|testing|inspection|certification|duty|duties|customs)\b`,
  String.raw`运费|样品|样衣|模具|开模|包装费|手续费|保险|快递|银行费`,
]);

/** Freight, samples, tooling, moulds, set-up, packaging, handling, bank charges, insurance: money for no product. */
export function isChargeLabel(text: string): boolean {
  if (!CHARGE.test(text.toLowerCase())) return false;
  const label = normaliseHeader(text);
  return label !== '' && label.length <= 80 && CHARGE.test(label);
}

/** A product code as suppliers write them: letters and digits, maybe dashes, no spaces ("KF001-FRG", "A-2291"). */
export function isCodeLike(text: string): boolean {
  const value = text.trim();
  return /^[A-Za-z0-9][A-Za-z0-9\-_/.#]{1,39}$/.test(value) && /\d/.test(value);
}

const TAX = anyOf([
  String.raw`^(?:add[:\s]+|plus[:\s]+)?(?:vat|iva|gst|igst|cgst|sgst|utgst|mwst|ust|tva|hst|pst|sales\s*tax|taxes|tax|` +
    String.raw`i\.v\.a\.?|thuế(?:\s*gtgt)?|vat\s*tax)(?![\p{L}])`,
  String.raw`mehrwertsteuer|umsatzsteuer|增值税|税金|税额|^税`,
]);

/** A tax row under the table ("GST 9%", "CGST @ 2.5%", "IVA 21%", "MwSt. 19%", "VAT"): money on top of the goods. */
export function isTaxLabel(text: string): boolean {
  const label = normaliseHeader(text);
  return label !== '' && label.length <= 50 && new RegExp(TAX.source, 'u').test(label);
}

const CLOSING_DISCOUNT =
  /^(?:less\b|(?:special|trade|cash|volume|closing|overall|total|additional|extra|order)?\s*(?:discount|disc\.)(?![\p{L}])|rabatt|descuento|desconto|remise|sconto|giảm\s*giá|chiết\s*khấu|折扣|优惠)/u;

/** A discount row under the table ("Less 5% discount", "Special discount 3%", "Rabatt 2%"): off every line. */
export function isClosingDiscountLabel(text: string): boolean {
  const label = normaliseHeader(text);
  if (label === '' || label.length > 60 || !CLOSING_DISCOUNT.test(label)) return false;
  // "Discount jacket" is a product: a discount row's other words only say what the discount is on.
  const other = label.replace(DISCOUNT_WORDS, ' ').match(/\p{L}+/gu) ?? [];
  return other.length === 0;
}

const DISCOUNT_WORDS =
  /\b(?:less|special|trade|cash|volume|closing|overall|total|additional|extra|order|discount|disc|on|of|the|amount|value|for|early|payment|goods|all|items|usd|eur|inr|rabatt|descuento|desconto|remise|sconto|auf|sobre|sur|gesamt)\b|giảm\s*giá|chiết\s*khấu|折扣|优惠/gu;

/** The percentage a label states ("Less 5% discount" → 0.05), or null. */
export function percentInLabel(text: string): number | null {
  const match = /(\d+(?:[.,]\d+)?)\s*%/.exec(text);
  const points = match?.[1] ? Number(match[1].replace(',', '.')) : NaN;
  return Number.isFinite(points) && points > 0 && points < 100 ? points / 100 : null;
}
