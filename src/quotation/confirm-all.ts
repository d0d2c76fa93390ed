// What "Confirm all suggestions" may confirm. A bulk click is only as good as what the person
// clicking knew: at threshold 0.5 it used to accept every suggestion on every page, 15–33 wrong SKUs per 16 files
// that nobody had looked at. Now it confirms the suggestions on the review page the buyer had on screen (they saw
// each one) and, on any page, the ones the matcher was as sure of as an auto-accept (held back only by a flag on the
// line's numbers, not by doubt about the product). Everything else stays open until a person sees it.
// Pure: the review service, the review message's button and the ingest bench all ask this one function.
import { MATCH_REVIEW } from '../config/business-rules.js';

/**
 * Review lines per page. Each undecided line takes 2 blocks; the rest of the review message at most 14 — 15 lines
 * keep a page at 44 of Slack's 50 blocks (src/slack/views/review.ts).
 */
export const REVIEW_PAGE_SIZE = 15;

export function reviewPageCount(lineCount: number): number {
  return Math.max(1, Math.ceil(lineCount / REVIEW_PAGE_SIZE));
}

/** A page number from a click or a message, as a page that exists (1 when it is not a number). */
export function clampReviewPage(page: number, lineCount: number): number {
  return Math.min(Math.max(1, Math.floor(page) || 1), reviewPageCount(lineCount));
}

/** One line of the review list (every line that needed a person, decided or not, in sheet order). */
export interface ReviewListLine {
  /** Still waiting for a person: not confirmed, not marked as not in the catalog. */
  pending: boolean;
  /** The matcher suggests a product. */
  suggested: boolean;
  /** The suggestion's confidence as stored: the matcher's, lowered by MATCH_REVIEW.validationFlagPenalty a flag. */
  confidence: number;
  /** Validation flags on the line. */
  flagCount: number;
}

/**
 * The matcher alone would have auto-accepted this suggestion: only the line's flags (about its numbers) held it
 * back. The stored confidence is the matcher's minus the flags' penalty; a penalty that floored it at 0 hides how
 * sure the matcher was, so that line does not count as sure.
 */
export function matcherWasSure(line: Pick<ReviewListLine, 'confidence' | 'flagCount'>): boolean {
  if (line.flagCount > 0 && line.confidence <= 0) return false;
  const before = line.confidence + MATCH_REVIEW.validationFlagPenalty * line.flagCount;
  // Confidences are stored rounded to 3 places: 0.65 + 0.2 must count as 0.85.
  return before >= MATCH_REVIEW.autoAcceptAt - 1e-9;
}

export interface ConfirmAllScope {
  /** Indexes into the review list of the lines the click confirms. */
  confirm: number[];
  /** Of those, on the page shown. */
  seen: number;
  /** Of those, on other pages, because the matcher was sure. */
  sure: number;
  /** Open suggestions a click may confirm once seen, on pages not shown: they stay open. */
  unseen: number;
}

/** The lines "Confirm all" confirms when clicked on review page `shownPage` of `lines`. */
export function confirmAllScope(lines: readonly ReviewListLine[], shownPage: number): ConfirmAllScope {
  const page = clampReviewPage(shownPage, lines.length);
  const first = (page - 1) * REVIEW_PAGE_SIZE;
  const scope: ConfirmAllScope = { confirm: [], seen: 0, sure: 0, unseen: 0 };
  lines.forEach((line, index) => {
    // Below mustActBelow a line must be decided on its own, seen or not (DESIGN: HIL thresholds).
    if (!line.pending || !line.suggested || line.confidence < MATCH_REVIEW.mustActBelow) return;
    if (index >= first && index < first + REVIEW_PAGE_SIZE) {
      scope.confirm.push(index);
      scope.seen++;
    } else if (matcherWasSure(line)) {
      scope.confirm.push(index);
      scope.sure++;
    } else {
      scope.unseen++;
    }
  });
  return scope;
}
