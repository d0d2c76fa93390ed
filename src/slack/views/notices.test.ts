import { describe, expect, it } from 'vitest';
import { notXlsx } from '../../quotation/xlsx-errors.js';
import { buildFileError, buildGenericError, buildNotAllowed, buildWorkbookFailed } from './notices.js';
import { HOSTILE, expectNoInjection, expectNoViolations, visibleText } from '../../../test/support/views.js';

describe('buildNotAllowed', () => {
  it('says who may do it and why, for each rule', () => {
    const work = buildNotAllowed({
      action: 'confirm matches',
      rule: { kind: 'uploader_or_approvers', uploaderId: 'U0BUYER01', approverIds: ['U0APPROV1', 'U0APPROV2'] },
    });
    expectNoViolations(work, 'message');
    expect(work.text).toBe(
      ':lock: Only the person who shared the file (<@U0BUYER01>) and the approvers (<@U0APPROV1> and <@U0APPROV2>) can confirm matches. Nothing was changed.',
    );
    const approve = buildNotAllowed({
      action: 'approve this purchase order',
      rule: { kind: 'approvers', approverIds: ['U0APPROV1'] },
    });
    expect(visibleText(approve)).toContain('Only the approvers (<@U0APPROV1>) can approve this purchase order.');
    expect(visibleText(approve)).toContain('larger orders need two');
    const settings = buildNotAllowed({ action: 'change settings', rule: { kind: 'admins', approverIds: [] } });
    expect(visibleText(settings)).toContain('the approvers (none are set yet)');
  });

  it('escapes a hostile action text and ids', () => {
    const m = buildNotAllowed({
      action: HOSTILE,
      rule: { kind: 'uploader_or_approvers', uploaderId: '<!channel>', approverIds: ['<!here>'] },
    });
    expectNoViolations(m, 'message');
    expectNoInjection(m);
  });
});

describe('buildFileError', () => {
  it("shows the parser's sentence and what to share instead", () => {
    const error = notXlsx('xls');
    const m = buildFileError({ fileName: 'quote.xls', code: error.code, message: error.userMessage });
    expectNoViolations(m, 'message');
    const text = visibleText(m);
    expect(text).toContain("Parley couldn't read quote.xls.");
    expect(text).toContain('old-style Excel file (.xls)');
    expect(text).toContain('Parley reads .xlsx files: export the sheet as .xlsx and share it again.');
    expect(m.text).toContain('quote.xls');
  });

  it('shows a raw preview when no item table was found, escaped', () => {
    const m = buildFileError({
      fileName: HOSTILE,
      code: 'no_item_table',
      message: 'No table of items was found.',
      preview: Array.from({ length: 40 }, () => Array.from({ length: 20 }, () => HOSTILE)),
    });
    expectNoViolations(m, 'message');
    expectNoInjection(m);
    const text = visibleText(m);
    expect(text).toContain('What Parley saw (first rows)');
    expect(text).toContain('Parley looks for a table');
  });
});

describe('buildGenericError', () => {
  it('gives the reference', () => {
    const m = buildGenericError({ ref: 'err_7f3a' });
    expectNoViolations(m, 'message');
    expect(m.text).toBe(
      ':warning: Something went wrong; it has been logged (ref `err_7f3a`). Please try again in a moment.',
    );
    expectNoInjection(buildGenericError({ ref: HOSTILE }));
  });
});

describe('buildWorkbookFailed', () => {
  it('says the PO stands, and what to do for the review workbook, escaped and within limits', () => {
    const po = buildWorkbookFailed({ kind: 'purchase_order', poNumber: 'PO-2026-0007' });
    expectNoViolations(po, 'message');
    expect(visibleText(po)).toContain('PO-2026-0007 itself is approved and stands');
    const review = buildWorkbookFailed({ kind: 'review', fileName: 'quote.xlsx' });
    expectNoViolations(review, 'message');
    expect(visibleText(review)).toContain('Download all lines');
    expectNoInjection(buildWorkbookFailed({ kind: 'review', fileName: HOSTILE }));
    expectNoInjection(buildWorkbookFailed({ kind: 'purchase_order', poNumber: HOSTILE }));
  });
});
