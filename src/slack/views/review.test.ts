import { describe, expect, it } from 'vitest';
import {
  ACTION,
  candidateOptionCodec,
  downloadLinesCodec,
  itemIdFromReviewLineBlockId,
  quotationIdFromPageJumpBlockId,
  quotationRefCodec,
  reviewConfirmCodec,
  reviewItemCodec,
  reviewPageCodec,
  supplierChoiceCodec,
} from '../ids.js';
import { REVIEW_PAGE_SIZE, reviewPageCount } from '../../quotation/confirm-all.js';
import { type ReviewLine, type ReviewModel, buildReviewMessage, buildReviewWorkbookSummary } from './review.js';
import {
  HOSTILE,
  buttons,
  elements,
  expectNoInjection,
  expectNoViolations,
  visibleText,
} from '../../../test/support/views.js';

const QT = 'clquotation00000000000001';

function line(n: number, extra: Partial<ReviewLine> = {}): ReviewLine {
  return {
    itemId: `clitem${String(n).padStart(19, '0')}`,
    sheet: 'Quote',
    row: n + 10,
    rawSku: `MB013-${n}`,
    rawDescription: `Insulated jacket ${n}`,
    quantity: 120,
    unitPrice: 32.5,
    suggestion: {
      productId: `clprod${String(n).padStart(19, '0')}`,
      sku: `MB013-0BS-${n}`,
      name: 'Insulated Winter Jacket',
      confidence: 0.72,
    },
    candidates: [
      {
        productId: `clprod${String(n).padStart(19, '0')}`,
        sku: `MB013-0BS-${n}`,
        name: 'Insulated Winter Jacket',
        confidence: 0.72,
      },
      {
        productId: `clalt${String(n).padStart(20, '0')}`,
        sku: `MB013-0GR-${n}`,
        name: 'Insulated Winter Jacket, green',
        confidence: 0.61,
      },
    ],
    decision: null,
    ...extra,
  };
}

function model(lines: ReviewLine[], extra: Partial<ReviewModel> = {}): ReviewModel {
  return {
    quotationId: QT,
    fileName: 'quote-march.xlsx',
    summary: {
      supplierNameAsRead: 'Valden Textiles Ltd.',
      sheets: ['Quote', 'Terms'],
      lineCount: 54,
      quotedTotal: 41650,
      currency: 'USD',
      paymentTerms: '33/33/33',
      leadTimeDays: 50,
      incoterm: 'FOB Shanghai',
    },
    supplier: { kind: 'certain', name: 'Valden Textiles' },
    autoAccepted: 42,
    lines,
    page: 1,
    ...extra,
  };
}

describe('buildReviewMessage', () => {
  it('shows the summary and counts with no line to review, and offers to start', () => {
    const message = buildReviewMessage(model([]));
    expectNoViolations(message, 'message');
    const text = visibleText(message);
    for (const s of [
      'Valden Textiles Ltd.',
      'Quote, Terms',
      '54',
      '$41,650.00',
      'USD',
      '33/33/33',
      '50 days',
      'FOB Shanghai',
      '42 lines matched',
    ]) {
      expect(text).toContain(s);
    }
    const start = buttons(message).find((b) => b.actionId === ACTION.reviewStartNegotiation);
    expect(start?.style).toBe('primary');
    expect(quotationRefCodec.decode(start?.value)).toEqual({ qt: QT });
    expect(buttons(message).some((b) => b.actionId === ACTION.reviewConfirmAll)).toBe(false);
    expect(message.text).toContain('every line is decided');
  });

  it('offers to connect a supplier that is not connected, beside Start, only when asked to', () => {
    const offered = buildReviewMessage({ ...model([]), offerToConnect: true });
    expectNoViolations(offered, 'message');
    const connect = buttons(offered).find((b) => b.actionId === ACTION.reviewConnectSupplier);
    expect(quotationRefCodec.decode(connect?.value)).toEqual({ qt: QT });
    expect(visibleText(offered)).toContain('an agent would play its side');
    const plain = buildReviewMessage(model([]));
    expect(buttons(plain).some((b) => b.actionId === ACTION.reviewConnectSupplier)).toBe(false);
    expect(visibleText(plain)).not.toContain('an agent would play its side');
  });

  it('tells a fresh workspace that nothing matched because it has no catalog yet, and how to import one', () => {
    expect(visibleText(buildReviewMessage(model([line(1)])))).not.toContain('/parley catalog');
    const fresh = buildReviewMessage(model([line(1)], { catalogEmpty: true, autoAccepted: 0 }));
    expectNoViolations(fresh, 'message');
    expect(visibleText(fresh)).toContain('no product catalog yet');
    expect(visibleText(fresh)).toContain('/parley catalog');
  });

  it('renders one line needing review with its select, Confirm and Not in catalog', () => {
    const l = line(1);
    const message = buildReviewMessage(model([l]));
    expectNoViolations(message, 'message');
    const text = visibleText(message);
    expect(text).toContain('Quote · row 11');
    expect(text).toContain('`MB013-1`');
    expect(text).toContain('Insulated jacket 1');
    expect(text).toContain('120 × $32.50');
    expect(text).toContain('MB013-0BS-1 — Insulated Winter Jacket');
    expect(text).toContain('72% sure');

    const lineElements = elements(message).filter((e) => itemIdFromReviewLineBlockId(e.blockId ?? '') === l.itemId);
    const select = lineElements.find((e) => e.type === 'static_select');
    const options = select?.raw.options as { value: string; text: { text: string } }[];
    expect(options).toHaveLength(2);
    expect(options.map((o) => candidateOptionCodec.decode(o.value))).toEqual([
      { p: l.candidates[0]?.productId },
      { p: l.candidates[1]?.productId },
    ]);
    expect(options[0]?.text.text).toBe('MB013-0BS-1 — Insulated Winter Jacket (72%)');
    expect(select?.raw.initial_option).toEqual(options[0]);

    const confirm = lineElements.find((e) => e.actionId === ACTION.reviewConfirm);
    expect(confirm?.style).toBe('primary');
    expect(reviewConfirmCodec.decode(confirm?.value)).toEqual({ i: l.itemId, p: l.suggestion?.productId });
    const notInCatalog = lineElements.find((e) => e.actionId === ACTION.reviewNotInCatalog);
    expect(reviewItemCodec.decode(notInCatalog?.value)).toEqual({ i: l.itemId });

    const confirmAll = buttons(message).find((b) => b.actionId === ACTION.reviewConfirmAll);
    expect(confirmAll?.text).toBe('Confirm all suggestions (1)');
    expect(quotationRefCodec.decode(confirmAll?.value)).toEqual({ qt: QT });
    expect(buttons(message).some((b) => b.actionId === ACTION.reviewStartNegotiation)).toBe(false);
    expect(buttons(message).some((b) => b.actionId === ACTION.reviewPageNext)).toBe(false);
  });

  it('shows the colour and size the file gave a line, escaped, and neither when the file has none', () => {
    const withVariant = line(1, { color: 'Glacier White <!here>', size: 'XL & up' });
    const message = buildReviewMessage(model([withVariant, line(2)]));
    expectNoViolations(message, 'message');
    expectNoInjection(message);
    const text = visibleText(message);
    expect(text).toContain('colour Glacier White &lt;!here&gt; · size XL &amp; up · 120 × $32.50');
    expect(text).not.toContain('colour Glacier White <!here>');
    // Line 2 has no colour or size cell: its quantity line is as before.
    expect(text).toMatch(/row 12\*[^\n]*\n120 × \$32\.50/);

    const decided = line(3, {
      color: 'Obsidian Black',
      size: 'M',
      decision: { kind: 'confirmed', sku: 'MB013-0BS-M', name: 'Insulated Winter Jacket', by: 'U0BUYER01' },
    });
    expect(visibleText(buildReviewMessage(model([decided])))).toContain('colour Obsidian Black · size M');
  });

  it('offers every line as a workbook for a large quotation only', () => {
    const large = buildReviewMessage(model([line(1)]));
    const download = buttons(large).find((b) => b.actionId === ACTION.reviewDownloadLines);
    expect(download?.text).toBe('Download all lines (54)');
    expect(downloadLinesCodec.decode(download?.value)).toEqual({ qt: QT });
    const summary = { ...model([]).summary, lineCount: 12 };
    const small = buildReviewMessage(model([line(1)], { summary }));
    expect(buttons(small).some((b) => b.actionId === ACTION.reviewDownloadLines)).toBe(false);
  });

  it('summarises a review workbook shared back: changes, rows not applied (escaped), or why nothing was', () => {
    const problems = Array.from({ length: 12 }, (_, i) => `Row ${i + 2}: “<!channel> ${'x'.repeat(400)}” is not a SKU`);
    const applied = buildReviewWorkbookSummary({
      kind: 'applied',
      fileName: 'quote - review.xlsx',
      quotationFileName: 'quote.xlsx',
      confirmed: 3,
      notInCatalog: 1,
      unchanged: 2950,
      problems,
    });
    expectNoViolations(applied, 'message');
    expectNoInjection(applied);
    const text = visibleText(applied);
    expect(text).toContain('3 lines confirmed, 1 line marked not in catalog, 2,950 rows unchanged');
    expect(text).toContain('12 rows were not applied');
    expect(text).toContain('…and 2 more rows.');
    const refused = buildReviewWorkbookSummary({
      kind: 'refused',
      fileName: 'quote - review.xlsx',
      reason: 'that quotation is past its review.',
    });
    expectNoViolations(refused, 'message');
    expect(visibleText(refused)).toContain('nothing was applied: that quotation is past its review.');
    const notTheirs = buildReviewWorkbookSummary({
      kind: 'refused',
      fileName: '<!here>.xlsx',
      reason: 'only <@U0MAYA0001>, who shared the quotation, and the approvers can review it.',
    });
    expectNoInjection(notTheirs);
    expect(visibleText(notTheirs)).toContain('nothing was applied: only <@U0MAYA0001>, who shared');
  });

  it('shows decided lines without buttons, and Start once all are decided', () => {
    const decided = [
      line(1, {
        decision: { kind: 'confirmed', sku: 'MB013-0BS-1', name: 'Insulated Winter Jacket', by: 'U0BUYER01' },
      }),
      line(2, { decision: { kind: 'not_in_catalog', by: 'U0BUYER01' } }),
    ];
    const message = buildReviewMessage(model(decided));
    expectNoViolations(message, 'message');
    const text = visibleText(message);
    expect(text).toContain('Confirmed as MB013-0BS-1 — Insulated Winter Jacket by <@U0BUYER01>');
    expect(text).toContain('Not in catalog — marked by <@U0BUYER01>');
    const ids = buttons(message).map((b) => b.actionId);
    expect(ids).not.toContain(ACTION.reviewConfirm);
    expect(ids).not.toContain(ACTION.reviewNotInCatalog);
    expect(ids).toContain(ACTION.reviewStartNegotiation);
  });

  it('pages 12 lines on one page and 300 lines over many, each page within 50 blocks', () => {
    const twelve = buildReviewMessage(model(Array.from({ length: 12 }, (_, i) => line(i))));
    expectNoViolations(twelve, 'message');
    expect(buttons(twelve).filter((b) => b.actionId === ACTION.reviewConfirm)).toHaveLength(12);
    expect(visibleText(twelve)).not.toContain('Page 1');

    const many = Array.from({ length: 300 }, (_, i) => line(i));
    const pages = reviewPageCount(300);
    expect(pages).toBe(Math.ceil(300 / REVIEW_PAGE_SIZE));
    const seen = new Set<string>();
    for (let page = 1; page <= pages; page++) {
      const message = buildReviewMessage(model(many, { page }));
      expectNoViolations(message, 'message');
      expect(message.blocks.length).toBeLessThanOrEqual(50);
      expect(visibleText(message)).toContain(`Page ${page} of ${pages}`);
      expect(message.text).toContain(`page ${page} of ${pages}`);
      for (const b of buttons(message).filter((x) => x.actionId === ACTION.reviewConfirm)) {
        seen.add(reviewConfirmCodec.decode(b.value)?.i ?? '');
      }
      const prev = buttons(message).find((b) => b.actionId === ACTION.reviewPagePrev);
      const next = buttons(message).find((b) => b.actionId === ACTION.reviewPageNext);
      expect(prev ? reviewPageCodec.decode(prev.value) : null).toEqual(page > 1 ? { qt: QT, pg: page - 1 } : null);
      expect(next ? reviewPageCodec.decode(next.value) : null).toEqual(page < pages ? { qt: QT, pg: page + 1 } : null);
      const jump = elements(message).find((e) => e.actionId === ACTION.reviewPageJump);
      expect(quotationIdFromPageJumpBlockId(jump?.blockId ?? '')).toBe(QT);
      expect(jump?.raw.max_value).toBe(String(pages));
    }
    // Every line appears on exactly one page.
    expect(seen.size).toBe(300);
    // "Confirm all" covers the page on screen only: the other 285 suggestions are open, and the message says why.
    const second = visibleText(buildReviewMessage(model(many, { page: 2 })));
    expect(second).toContain('Confirm all suggestions (15)');
    expect(second).toContain('285 suggestions on other pages are not included');
  });

  it('counts in "Confirm all" the page shown and the lines the matcher was sure of, and says what stays open', () => {
    // Line 30 (page 3) was matched at 1.0 but a flag on its quantity cost 0.2: the matcher was sure of the product.
    // Line 31 (page 3) was matched at 0.72 with no flag: nobody has seen it, so it stays open.
    // Line 2 (page 1, shown) is below mustActBelow: it must be decided on its own.
    const lines = Array.from({ length: 32 }, (_, i) => line(i));
    const sure = lines[30];
    const weak = lines[2];
    if (!sure || !weak) throw new Error('fixture');
    lines[30] = line(30, {
      flags: ['quantity is not a whole number'],
      suggestion: sure.suggestion && { ...sure.suggestion, confidence: 0.8 },
    });
    lines[2] = line(2, { suggestion: weak.suggestion && { ...weak.suggestion, confidence: 0.4 } });
    const message = buildReviewMessage(model(lines, { page: 1 }));
    expectNoViolations(message, 'message');
    const confirmAll = buttons(message).find((b) => b.actionId === ACTION.reviewConfirmAll);
    expect(confirmAll?.text).toBe('Confirm all suggestions (15)');
    const dialog = JSON.stringify(message.blocks);
    expect(dialog).toContain('the 14 on this page and 1 on other pages that the matcher is sure of');
    // Lines 15–29 and 31 on pages 2 and 3.
    expect(visibleText(message)).toContain('16 suggestions on other pages are not included');

    const allSeen = buildReviewMessage(model(lines.slice(0, 15)));
    expect(visibleText(allSeen)).not.toContain('not included');
  });

  it('clamps a page out of range', () => {
    const many = Array.from({ length: 40 }, (_, i) => line(i));
    expect(visibleText(buildReviewMessage(model(many, { page: 99 })))).toContain('Page 3 of 3');
    expect(visibleText(buildReviewMessage(model(many, { page: -4 })))).toContain('Page 1 of 3');
  });

  it('asks which supplier when unsure: use existing or create new', () => {
    const message = buildReviewMessage(
      model([], {
        supplier: { kind: 'uncertain', existing: { supplierId: 'clsupplier000000000000001', name: 'Valden Textiles' } },
      }),
    );
    expectNoViolations(message, 'message');
    const use = buttons(message).find((b) => b.actionId === ACTION.reviewSupplierUseExisting);
    const create = buttons(message).find((b) => b.actionId === ACTION.reviewSupplierCreate);
    expect(use?.text).toBe('Use Valden Textiles');
    expect(supplierChoiceCodec.decode(use?.value)).toEqual({ qt: QT, s: 'clsupplier000000000000001' });
    expect(create?.text).toBe('Create new supplier Valden Textiles Ltd.');
    expect(supplierChoiceCodec.decode(create?.value)).toEqual({ qt: QT });
    // No start while the supplier is open.
    expect(buttons(message).some((b) => b.actionId === ACTION.reviewStartNegotiation)).toBe(false);
    expect(visibleText(message)).toContain('Settle the supplier');

    const decided = buildReviewMessage(
      model([], { supplier: { kind: 'decided', name: 'Valden Textiles Ltd.', created: true, by: 'U0BUYER01' } }),
    );
    expect(visibleText(decided)).toContain('Created new supplier *Valden Textiles Ltd.* — <@U0BUYER01>');
  });

  it('a line without candidates only offers Not in catalog', () => {
    const l = line(1, { suggestion: null, candidates: [] });
    const message = buildReviewMessage(model([l]));
    expectNoViolations(message, 'message');
    // (The quotation has 54 lines: "Download all lines" is offered below the review too.)
    expect(buttons(message).map((b) => b.actionId)).toEqual([ACTION.reviewNotInCatalog, ACTION.reviewDownloadLines]);
    expect(visibleText(message)).toContain('No catalog match found');
  });

  it('escapes and truncates hostile cell text everywhere', () => {
    const long = HOSTILE.repeat(300);
    const hostileLines = Array.from({ length: 20 }, (_, i) =>
      line(i, {
        sheet: long,
        rawSku: long,
        rawDescription: long,
        color: long,
        size: long,
        flags: [long, long, long, long],
        suggestion: { productId: `clprod${String(i).padStart(19, '0')}`, sku: long, name: long, confidence: 0.6 },
        candidates: Array.from({ length: 8 }, (_, j) => ({
          productId: `clc${i}x${j}`.padEnd(25, '0'),
          sku: long,
          name: long,
          confidence: 0.5,
        })),
      }),
    );
    hostileLines.push(line(99, { decision: { kind: 'confirmed', sku: long, name: long, by: '<!channel>' } }));
    const message = buildReviewMessage(
      model(hostileLines, {
        fileName: long,
        summary: {
          supplierNameAsRead: long,
          sheets: Array.from({ length: 9 }, () => long),
          lineCount: 1,
          quotedTotal: 1,
          currency: long,
          paymentTerms: long,
          leadTimeDays: 1,
          incoterm: long,
        },
        supplier: { kind: 'uncertain', existing: { supplierId: 'clsupplier000000000000001', name: long } },
      }),
    );
    expectNoViolations(message, 'message');
    expectNoInjection(message);
    const select = elements(message).find((e) => e.type === 'static_select');
    expect((select?.raw.options as unknown[]).length).toBe(5);
  });
});
