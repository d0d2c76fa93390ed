// What a fixed-scale numeric column (Decimal(p, s)) holds for a JS number, worked out without asking the database:
// a writer that builds what it shows before its transaction (the review of a read file) shows the value as stored.

/** The scales of QuotationItem's numeric columns, as prisma/schema.prisma declares them. */
export const QUOTATION_ITEM_SCALE = { unitPrice: 4, totalPrice: 2 } as const;

/**
 * The value `value` is stored as in a numeric column of scale `scale`, as its text ("12.3400"): the number's shortest
 * decimal form (what JSON carries to the database), rounded half away from zero at `scale` as PostgreSQL rounds it.
 */
export function storedNumeric(value: number, scale: number): string {
  if (!Number.isFinite(value)) throw new RangeError(`${value} cannot be stored in a numeric column`);
  return numericText(scaled(value, scale), scale);
}

/** The exact sum of stored numeric texts of one scale, as its text; null when there is none (SQL's sum). */
export function sumNumeric(values: readonly string[], scale: number): string | null {
  if (values.length === 0) return null;
  let total = 0n;
  for (const value of values) total += scaledText(value, scale);
  return numericText(total, scale);
}

/** `value` × 10^scale, rounded half away from zero: the integer a numeric of that scale holds. */
function scaled(value: number, scale: number): bigint {
  const [mantissa = '0', exponent = '0'] = String(value).toLowerCase().split('e');
  const negative = mantissa.startsWith('-');
  const [whole = '0', fraction = ''] = mantissa.replace('-', '').split('.');
  const digits = BigInt(`${whole}${fraction}`);
  const shift = Number(exponent) - fraction.length + scale;
  let magnitude: bigint;
  if (shift >= 0) {
    magnitude = digits * 10n ** BigInt(shift);
  } else {
    const divisor = 10n ** BigInt(-shift);
    magnitude = digits / divisor;
    if (2n * (digits % divisor) >= divisor) magnitude += 1n;
  }
  return negative ? -magnitude : magnitude;
}

/** A stored numeric text of this scale (as storedNumeric wrote it) back to its integer. */
function scaledText(text: string, scale: number): bigint {
  const negative = text.startsWith('-');
  const [whole = '0', fraction = ''] = text.replace('-', '').split('.');
  const magnitude = BigInt(`${whole}${fraction.padEnd(scale, '0')}`);
  return negative ? -magnitude : magnitude;
}

function numericText(units: bigint, scale: number): string {
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString().padStart(scale + 1, '0');
  const whole = digits.slice(0, digits.length - scale);
  const fraction = digits.slice(digits.length - scale);
  const sign = negative && units !== 0n ? '-' : '';
  return scale === 0 ? `${sign}${whole}` : `${sign}${whole}.${fraction}`;
}
