import { describe, expect, it } from 'vitest';
import { isSettled, type ThreadLook } from './thread-settler.js';

const look = (overrides: Partial<ThreadLook>): ThreadLook => ({
  quotationStatus: 'review',
  negotiationStatus: null,
  openQuestions: 0,
  unsentRows: 0,
  ...overrides,
});

describe('isSettled: when a buyer watching the thread would act next', () => {
  it('waits while the file is being read, and while any message of the thread is unsent', () => {
    expect(isSettled(look({ quotationStatus: 'received' }))).toBe(false);
    expect(isSettled(look({ quotationStatus: 'parsing' }))).toBe(false);
    expect(isSettled(look({ quotationStatus: 'review', unsentRows: 1 }))).toBe(false);
    expect(isSettled(look({ quotationStatus: 'review' }))).toBe(true);
    expect(isSettled(look({ quotationStatus: 'failed' }))).toBe(true);
  });

  it('waits while the negotiation runs or concludes, not while it asks the buyer', () => {
    const negotiating = { quotationStatus: 'negotiating' };
    expect(isSettled(look({ ...negotiating, negotiationStatus: 'negotiating' }))).toBe(false);
    // Completed by the engine, but the decision is not written yet (the quotation is still negotiating).
    expect(isSettled(look({ ...negotiating, negotiationStatus: 'completed' }))).toBe(false);
    // Paused with its question answered: about to resume.
    expect(isSettled(look({ ...negotiating, negotiationStatus: 'paused', openQuestions: 0 }))).toBe(false);
    expect(isSettled(look({ ...negotiating, negotiationStatus: 'paused', openQuestions: 1 }))).toBe(true);
    expect(isSettled(look({ quotationStatus: 'completed', negotiationStatus: 'completed' }))).toBe(true);
  });
});
