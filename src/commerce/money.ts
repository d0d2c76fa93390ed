// Money for every part of Parley: amounts are held and summed as integer minor units of their currency (cents for
// US dollars, yen for yen, fils for dinars), so totals add up exactly and are never compared as raw floats, and they
// are written one way everywhere, so a figure reads the same in an agent's message, a decision and a PO.

const USD = 'USD';
/** What an unknown or malformed currency code gets: most currencies have two minor digits. */
const DEFAULT_MINOR_DIGITS = 2;

/** Below this, two objective values (in cents) are the same: far under a cent, far above float noise on 10^9 cents. */
export const CENT_EPSILON = 1e-4;

const minorDigitsByCode = new Map<string, number>();

/** Minor-unit digits of a currency, as `Intl` knows them: JPY 0, USD 2, KWD 3; 2 for a code it does not know. */
export function minorUnitDigits(currency: string): number {
  const code = currencyCode(currency);
  const known = minorDigitsByCode.get(code);
  if (known !== undefined) return known;
  try {
    const options = new Intl.NumberFormat('en-US', { style: 'currency', currency: code }).resolvedOptions();
    const digits = options.maximumFractionDigits ?? DEFAULT_MINOR_DIGITS;
    // Only well-formed codes are kept (at most 26³), so text a supplier typed cannot grow the cache without bound.
    minorDigitsByCode.set(code, digits);
    return digits;
  } catch {
    // A malformed code ("US$", "") is something a supplier typed: it must not break a total or an explanation.
    return DEFAULT_MINOR_DIGITS;
  }
}

/**
 * Integer minor units, half away from zero, as a person rounds the amount as written: 10.005 USD → 1001, though the
 * float 10.005 is 10.00499999… and 10.005 × 100 is 1000.4999… Throws a RangeError on an amount that is not finite or
 * whose minor units are beyond exact integers (2^53): a total there would silently lose cents.
 */
export function toMinorUnits(amount: number, currency: string = USD): number {
  const minor = roundToMinor(amount, minorUnitDigits(currency));
  if (!Number.isSafeInteger(minor)) throw new RangeError(`amount ${amount} ${currency} is not a safe amount of money`);
  return minor;
}

/** True when the amount can be held as exact minor units: what toMinorUnits takes without throwing. */
export function isSafeAmount(amount: number, currency: string = USD): boolean {
  return Number.isFinite(amount) && Number.isSafeInteger(roundToMinor(amount, minorUnitDigits(currency)));
}

/** Currency units from minor units (rounded to a whole minor unit first): 4165000 USD → 41650. */
export function fromMinorUnits(minor: number, currency: string = USD): number {
  const whole = Math.round(minor);
  if (!Number.isSafeInteger(whole)) throw new RangeError(`${minor} minor units of ${currency} is not a safe amount`);
  // `+ 0` turns a -0 (from rounding -0.4) into 0: a minus sign on zero reads as an error.
  return whole / 10 ** minorUnitDigits(currency) + 0;
}

/** US cents: the decision and PO code work in dollars' two digits. */
export function toCents(amount: number): number {
  return toMinorUnits(amount, USD);
}

export function fromCents(cents: number): number {
  return fromMinorUnits(cents, USD);
}

/**
 * en-US grouping for every currency, so numbers compare at a glance across suppliers: `$41,650.00` for US dollars,
 * the ISO code in front for anything else (`EUR 1,234.50`, `JPY 1,235`), because `$` alone is ambiguous (HK$, NT$,
 * …) and a thread mixing "€" with "EUR" reads as two currencies. Digits follow the currency; an unknown code never
 * throws (it is shown as written, with two digits).
 */
export function formatMoney(amount: number, currency: string = USD): string {
  const code = currencyCode(currency);
  if (!Number.isFinite(amount)) return `${code === USD ? '$' : prefix(code)}${String(amount)}`;
  const digits = code === USD ? 2 : minorUnitDigits(code);
  const minor = roundToMinor(amount, digits);
  // Rounding -0.004 gives -0: a minus sign on zero reads as an error.
  const sign = minor < 0 ? '-' : '';
  const text = amountFormat(digits).format(Math.abs(minor) / 10 ** digits);
  return code === USD ? `${sign}$${text}` : `${sign}${prefix(code)}${text}`;
}

/**
 * A fraction as a percentage: 0.123 → "12.3%". With `minimumDigits` below `digits`, trailing zeros go: 0.05 → "5%",
 * 0.045 → "4.5%" (how a percentage is said in a message). Never "-0%".
 */
export function formatPercent(fraction: number, digits = 1, minimumDigits = digits): string {
  let text = (fraction * 100).toFixed(digits);
  if (minimumDigits < digits && text.includes('.')) {
    const [whole = '', decimals = ''] = text.split('.');
    const kept = decimals.replace(/0+$/, '').padEnd(minimumDigits, '0');
    text = kept === '' ? whole : `${whole}.${kept}`;
  }
  if (/^-0(\.0*)?$/.test(text)) text = text.slice(1);
  return `${text}%`;
}

function currencyCode(currency: string): string {
  return currency.trim().toUpperCase();
}

function prefix(code: string): string {
  return code === '' ? '' : `${code} `;
}

const amountFormats = new Map<number, Intl.NumberFormat>();

function amountFormat(digits: number): Intl.NumberFormat {
  let format = amountFormats.get(digits);
  if (format === undefined) {
    format = new Intl.NumberFormat('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
    amountFormats.set(digits, format);
  }
  return format;
}

/**
 * Shifts the decimal point in the number's shortest text form (what a person wrote) rather than multiplying, which
 * avoids the binary error of 1.005 × 100 = 100.49999…; half away from zero; never -0.
 */
function roundToMinor(amount: number, digits: number): number {
  const magnitude = Math.abs(amount);
  const text = String(magnitude);
  const shifted = text.includes('e') ? magnitude * 10 ** digits : Number(`${text}e${digits}`);
  const minor = Math.round(shifted);
  return amount < 0 && minor !== 0 ? -minor : minor;
}
