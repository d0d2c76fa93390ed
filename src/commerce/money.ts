// Money in the decision code: amounts are summed as integer cents so that totals add up to the cent and are never
// compared as raw floats; they leave this module as currency units rounded to the cent.

/** Below this, two objective values (in cents) are the same: far under a cent, far above float noise on 10^9 cents. */
export const CENT_EPSILON = 1e-4;

export function toCents(amount: number): number {
  return Math.round(amount * 100);
}

export function fromCents(cents: number): number {
  return Math.round(cents) / 100;
}

/** "$41,650.00": what a finance person reads in an explanation. */
export function formatMoney(amount: number, currency = 'USD'): string {
  try {
    return new Intl.NumberFormat('en-US', { style: 'currency', currency }).format(amount);
  } catch {
    // An unknown code in an offer must not break an explanation: show the number with the code next to it.
    return `${amount.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })} ${currency}`;
  }
}

/** "12.3%" from a fraction, one decimal. */
export function formatPercent(fraction: number, digits = 1): string {
  return `${(fraction * 100).toFixed(digits)}%`;
}
