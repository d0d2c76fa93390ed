// Durations in milliseconds, for the rules that count hours and days of waiting (reminders, expiry, leases).
export const HOUR_MS = 3_600_000;
export const DAY_MS = 24 * HOUR_MS;
