// Durations in milliseconds, for the rules that count hours and days of waiting (reminders, expiry, leases).
export const HOUR_MS = 3_600_000;
export const DAY_MS = 24 * HOUR_MS;

/**
 * `days` business days after `from`, at the same time of day: Saturdays and Sundays (UTC) are not counted, so a
 * message sent on Friday with two days to answer is due on Tuesday. Public holidays differ by country and are not known.
 */
export function addBusinessDays(from: Date, days: number): Date {
  const at = new Date(from.getTime());
  let left = days;
  while (left > 0) {
    at.setTime(at.getTime() + DAY_MS);
    const weekday = at.getUTCDay();
    if (weekday !== 0 && weekday !== 6) left -= 1;
  }
  return at;
}
