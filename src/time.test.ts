import { describe, expect, it } from 'vitest';
import { addBusinessDays } from './time.js';

describe('addBusinessDays', () => {
  it('counts weekdays only, keeping the time of day', () => {
    // 2026-12-03 is a Thursday.
    const thursday = new Date('2026-12-03T15:30:00Z');
    expect(addBusinessDays(thursday, 1).toISOString()).toBe('2026-12-04T15:30:00.000Z'); // Friday
    expect(addBusinessDays(thursday, 2).toISOString()).toBe('2026-12-07T15:30:00.000Z'); // Monday
    expect(addBusinessDays(thursday, 7).toISOString()).toBe('2026-12-14T15:30:00.000Z');
    expect(addBusinessDays(thursday, 0)).toEqual(thursday);
  });

  it('from a weekend, starts counting on Monday', () => {
    const saturday = new Date('2026-12-05T09:00:00Z');
    expect(addBusinessDays(saturday, 1).toISOString()).toBe('2026-12-07T09:00:00.000Z');
    expect(addBusinessDays(saturday, 2).toISOString()).toBe('2026-12-08T09:00:00.000Z');
  });
});
