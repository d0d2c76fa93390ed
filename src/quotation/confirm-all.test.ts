import { describe, expect, it } from 'vitest';
import { MATCH_REVIEW } from '../config/business-rules.js';
import { REVIEW_PAGE_SIZE, type ReviewListLine, confirmAllScope, matcherWasSure } from './confirm-all.js';

const open = (confidence: number, flagCount = 0): ReviewListLine => ({
  pending: true,
  suggested: true,
  confidence,
  flagCount,
});

describe('matcherWasSure', () => {
  it('is sure at the auto-accept threshold, before the flags’ penalty', () => {
    expect(matcherWasSure(open(MATCH_REVIEW.autoAcceptAt))).toBe(true);
    expect(matcherWasSure(open(0.84))).toBe(false);
    // 0.85 lowered by one flag is stored as 0.65 (rounded): still sure of the product.
    expect(matcherWasSure(open(0.65, 1))).toBe(true);
    expect(matcherWasSure(open(0.64, 1))).toBe(false);
    expect(matcherWasSure(open(0.45, 2))).toBe(true);
    // Floored at 0 by the penalty: how sure the matcher was is unknown.
    expect(matcherWasSure(open(0, 5))).toBe(false);
  });
});

describe('confirmAllScope', () => {
  const lines = (count: number, make: (index: number) => ReviewListLine = () => open(0.7)) =>
    Array.from({ length: count }, (_, index) => make(index));

  it('confirms the open suggestions of the page shown, and leaves the other pages’ open', () => {
    const scope = confirmAllScope(lines(40), 2);
    expect(scope.confirm).toEqual(Array.from({ length: REVIEW_PAGE_SIZE }, (_, i) => REVIEW_PAGE_SIZE + i));
    expect(scope).toMatchObject({ seen: REVIEW_PAGE_SIZE, sure: 0, unseen: 40 - REVIEW_PAGE_SIZE });
  });

  it('adds the suggestions the matcher was sure of on any page', () => {
    const list = lines(40, (index) => (index === 35 ? open(0.8, 1) : open(0.7)));
    const scope = confirmAllScope(list, 1);
    expect(scope.confirm).toContain(35);
    expect(scope).toMatchObject({ seen: REVIEW_PAGE_SIZE, sure: 1, unseen: 40 - REVIEW_PAGE_SIZE - 1 });
  });

  it('skips decided lines, lines with no suggestion and must-act lines, seen or not', () => {
    const list = lines(20, (index) => {
      if (index === 0) return { ...open(0.9), pending: false };
      if (index === 1) return { ...open(0), suggested: false };
      if (index === 2) return open(MATCH_REVIEW.mustActBelow - 0.01);
      if (index === 16) return open(0.3, 3);
      return open(0.7);
    });
    const scope = confirmAllScope(list, 1);
    expect(scope.confirm).not.toContain(0);
    expect(scope.confirm).not.toContain(1);
    expect(scope.confirm).not.toContain(2);
    expect(scope.confirm).not.toContain(16);
    expect(scope.seen).toBe(REVIEW_PAGE_SIZE - 3);
    // Lines 15, 17, 18, 19: clickable but unseen. Line 16 must be acted on and is not counted as left for a click.
    expect(scope.unseen).toBe(4);
  });

  it('reads a page out of range as the nearest page, as the message shows it', () => {
    expect(confirmAllScope(lines(20), 99).confirm).toEqual([15, 16, 17, 18, 19]);
    expect(confirmAllScope(lines(20), Number.NaN).confirm).toHaveLength(REVIEW_PAGE_SIZE);
  });
});
