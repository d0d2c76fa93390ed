// The review message: what Parley read from the quotation, and every line whose catalog match a person must check
// (confidence below the auto-accept threshold, or flagged). One message, paged and edited in place: each page keeps
// well under Slack's 50 blocks, whatever the number of lines.
import type { ActionsBlockElement, KnownBlock, PlainTextOption, StaticSelect } from '@slack/types';
import {
  ACTION,
  BLOCK,
  candidateOptionCodec,
  confirmAllCodec,
  downloadLinesCodec,
  quotationRefCodec,
  reviewConfirmCodec,
  reviewItemCodec,
  reviewLineBlockId,
  reviewPageCodec,
  reviewPageJumpBlockId,
  supplierChoiceCodec,
} from '../ids.js';
import {
  type SlackMessage,
  actions,
  button,
  context,
  days,
  divider,
  fieldsSection,
  header,
  money,
  percent,
  plural,
  quantity,
  section,
  terms,
  who,
} from './blocks.js';
import { escapeTruncate, inline, oneLine, plain } from './escape.js';
import {
  REVIEW_PAGE_SIZE,
  type ReviewListLine,
  clampReviewPage,
  confirmAllScope,
  reviewPageCount,
} from '../../quotation/confirm-all.js';

export interface ReviewProduct {
  productId: string;
  sku: string;
  name: string;
  /** 0–1. */
  confidence: number;
}

export type ReviewDecision =
  { kind: 'confirmed'; sku: string; name: string; by: string } | { kind: 'not_in_catalog'; by: string };

export interface ReviewLine {
  itemId: string;
  sheet: string;
  /** 1-based row in the sheet. */
  row: number;
  rawSku: string | null;
  rawDescription: string | null;
  /** The colour and size as the file wrote them (file text: escaped when shown). */
  color?: string | null;
  size?: string | null;
  quantity: number | null;
  unitPrice: number | null;
  /** The matcher's best guess; null when nothing matched. */
  suggestion: ReviewProduct | null;
  /** Up to 5, best first (the suggestion usually among them). */
  candidates: ReviewProduct[];
  /** Validation flags in words ("quantity is not a whole number"). */
  flags?: string[];
  decision: ReviewDecision | null;
}

/** Who the supplier is: matched for sure, a guess the buyer must settle, or already settled by a person. */
export type ReviewSupplier =
  | { kind: 'certain'; name: string }
  | { kind: 'uncertain'; existing: { supplierId: string; name: string } | null }
  | { kind: 'decided'; name: string; created: boolean; by: string };

export interface ReviewModel {
  quotationId: string;
  fileName: string;
  summary: {
    /** The supplier as the sheet names it. */
    supplierNameAsRead: string | null;
    sheets: string[];
    lineCount: number;
    quotedTotal: number | null;
    currency: string;
    paymentTerms: string | null;
    leadTimeDays: number | null;
    incoterm: string | null;
  };
  supplier: ReviewSupplier;
  /** Lines accepted without a person: counted, not listed. */
  autoAccepted: number;
  /** Every line that needed a person, decided or not, in sheet order. */
  lines: ReviewLine[];
  /** 1-based; clamped to the pages there are. */
  page: number;
  /** The workspace has no product catalog yet (a fresh install): nothing could match, and the buyer is told why. */
  catalogEmpty?: boolean;
  /**
   * The settled supplier is not connected in Slack Connect while the workspace negotiates with connected ones: the
   * card offers to connect it (an agent would play it otherwise, and no connected supplier could compete with it).
   */
  offerToConnect?: boolean;
}

/** Why nothing matched on a fresh install, and the way out. */
export const NO_CATALOG_HINT =
  ':information_source: This workspace has no product catalog yet, so no line could be matched. ' +
  'An approver or workspace admin can import the brand’s catalog (CSV or XLSX) with `/parley catalog`; ' +
  'lines can still be marked “Not in catalog” here meanwhile.';

const RAW_SKU_MAX = 60;
const RAW_DESCRIPTION_MAX = 200;
const PRODUCT_NAME_MAX = 80;
const VARIANT_MAX = 40;

function productText(p: { sku: string; name: string }): string {
  return `${inline(p.sku, 40)} — ${inline(p.name, PRODUCT_NAME_MAX)}`;
}

/** `SKU — name (87%)` within Slack's 75 chars for an option; the value names the item and the product. */
function candidateOption(itemId: string, p: ReviewProduct): PlainTextOption {
  const conf = ` (${percent(p.confidence)})`;
  const text = plain(`${oneLine(p.sku)} — ${oneLine(p.name)}`, 75 - conf.length).text + conf;
  return {
    text: { type: 'plain_text', text, emoji: true },
    value: candidateOptionCodec.encode({ p: p.productId }),
  };
}

function lineHeadline(line: ReviewLine, currency: string): string {
  const where = `${inline(line.sheet, 40)} · row ${line.row}`;
  const sku = line.rawSku ? `\`${inline(line.rawSku.replace(/`/g, 'ˋ'), RAW_SKU_MAX)}\`` : '_no SKU_';
  const desc = line.rawDescription ? inline(line.rawDescription, RAW_DESCRIPTION_MAX) : '_no description_';
  const variant = [
    line.color ? `colour ${inline(line.color, VARIANT_MAX)}` : null,
    line.size ? `size ${inline(line.size, VARIANT_MAX)}` : null,
  ].filter((part) => part !== null);
  const qty = `${quantity(line.quantity)} × ${money(line.unitPrice, currency)}`;
  return `*${where}* — ${sku} ${desc}\n${[...variant, qty].join(' · ')}`;
}

function lineBlocks(line: ReviewLine, currency: string): KnownBlock[] {
  const head = lineHeadline(line, currency);
  const d = line.decision;
  if (d) {
    const outcome =
      d.kind === 'confirmed'
        ? `:white_check_mark: Confirmed as ${productText(d)} by ${who(d.by)}`
        : `:x: Not in catalog — marked by ${who(d.by)}`;
    return [section(`${head}\n${outcome}`)];
  }
  const flags = (line.flags ?? []).slice(0, 3).map((f) => `:warning: ${inline(f, 150)}`);
  const suggestion = line.suggestion
    ? `Suggested: *${productText(line.suggestion)}* · ${percent(line.suggestion.confidence)} sure`
    : '_No catalog match found._';
  const elements: ActionsBlockElement[] = [];
  const candidates = dedupe(line.suggestion ? [line.suggestion, ...line.candidates] : line.candidates).slice(0, 5);
  if (candidates.length > 0) {
    const options = candidates.map((c) => candidateOption(line.itemId, c));
    const select: StaticSelect = {
      type: 'static_select',
      action_id: ACTION.reviewSelectCandidate,
      placeholder: plain('Pick the right product', 150),
      options,
    };
    const initialIndex = line.suggestion ? candidates.findIndex((c) => c.productId === line.suggestion?.productId) : -1;
    const initial = options[initialIndex];
    if (initial) select.initial_option = initial;
    elements.push(select);
  }
  if (candidates.length > 0) {
    // The select's state wins; without a suggestion `p` is null and the listener needs a pick from the select.
    elements.push(
      button({
        text: 'Confirm',
        actionId: ACTION.reviewConfirm,
        style: 'primary',
        value: reviewConfirmCodec.encode({ i: line.itemId, p: line.suggestion?.productId ?? null }),
      }),
    );
  }
  elements.push(
    button({
      text: 'Not in catalog',
      actionId: ACTION.reviewNotInCatalog,
      value: reviewItemCodec.encode({ i: line.itemId }),
    }),
  );
  return [section([head, suggestion, ...flags].join('\n')), actions(reviewLineBlockId(line.itemId), elements)];
}

/** What "Confirm all" needs to know of a review line (src/quotation/confirm-all.ts decides). */
function reviewListLine(line: ReviewLine): ReviewListLine {
  return {
    pending: line.decision === null,
    suggested: line.suggestion !== null,
    confidence: line.suggestion?.confidence ?? 0,
    flagCount: line.flags?.length ?? 0,
  };
}

/** Why "Confirm all" leaves suggestions open: the buyer has not seen them, and the matcher is not sure of them. */
export function unseenSentence(unseen: number): string {
  return (
    `:eyes: ${plural(unseen, 'suggestion')} on other pages ${unseen === 1 ? 'is' : 'are'} not included in ` +
    '“Confirm all”: Parley confirms only the suggestions you have seen and those its matcher is sure of. ' +
    'Open their pages to confirm them.'
  );
}

function dedupe(products: readonly ReviewProduct[]): ReviewProduct[] {
  const seen = new Set<string>();
  return products.filter((p) => (seen.has(p.productId) ? false : (seen.add(p.productId), true)));
}

function summaryFields(model: ReviewModel): string[] {
  const s = model.summary;
  const supplierName =
    model.supplier.kind === 'certain' || model.supplier.kind === 'decided'
      ? inline(model.supplier.name, 80)
      : model.supplier.existing
        ? `${inline(model.supplier.existing.name, 80)}?`
        : '_new supplier?_';
  const asRead = s.supplierNameAsRead ? inline(s.supplierNameAsRead, 80) : '_not stated_';
  const sheets =
    s.sheets.length === 0
      ? '—'
      : s.sheets
          .slice(0, 5)
          .map((n) => inline(n, 30))
          .join(', ');
  const moreSheets = s.sheets.length > 5 ? ` +${s.sheets.length - 5}` : '';
  return [
    `*Supplier (as read)*\n${asRead}`,
    `*Matched supplier*\n${supplierName}`,
    `*Sheets*\n${sheets}${moreSheets}`,
    `*Lines*\n${quantity(s.lineCount)}`,
    `*Quoted total*\n${money(s.quotedTotal, s.currency)}`,
    `*Currency*\n${inline(s.currency, 10) || '—'}`,
    `*Payment terms*\n${terms(s.paymentTerms)}`,
    `*Lead time*\n${days(s.leadTimeDays)}`,
    `*Incoterm*\n${s.incoterm ? inline(s.incoterm, 30) : '—'}`,
  ];
}

function supplierBlocks(model: ReviewModel): KnownBlock[] {
  const sup = model.supplier;
  const asRead = model.summary.supplierNameAsRead ? oneLine(model.summary.supplierNameAsRead) : null;
  if (sup.kind === 'decided') {
    const what = sup.created ? 'Created new supplier' : 'Using supplier';
    return [context([`:busts_in_silhouette: ${what} *${inline(sup.name, 80)}* — ${who(sup.by)}`])];
  }
  if (sup.kind === 'certain') return [];
  const asked = sup.existing
    ? `:busts_in_silhouette: *Which supplier is this?* The sheet says *${asRead ? escapeTruncate(asRead, 80) : 'nothing'}*; it looks like *${inline(sup.existing.name, 80)}*.`
    : `:busts_in_silhouette: *Which supplier is this?* The sheet says *${asRead ? escapeTruncate(asRead, 80) : 'nothing'}*, which matches no supplier yet.`;
  const elements: ActionsBlockElement[] = [];
  if (sup.existing) {
    elements.push(
      button({
        text: `Use ${oneLine(sup.existing.name)}`,
        actionId: ACTION.reviewSupplierUseExisting,
        style: 'primary',
        value: supplierChoiceCodec.encode({ qt: model.quotationId, s: sup.existing.supplierId }),
      }),
    );
  }
  elements.push(
    button({
      text: `Create new supplier ${asRead ?? 'from this quotation'}`,
      actionId: ACTION.reviewSupplierCreate,
      value: supplierChoiceCodec.encode({ qt: model.quotationId }),
    }),
  );
  return [section(asked), actions(BLOCK.reviewSupplier, elements)];
}

export function buildReviewMessage(model: ReviewModel): SlackMessage {
  const lines = model.lines;
  const pages = reviewPageCount(lines.length);
  const page = clampReviewPage(model.page, lines.length);
  const pending = lines.filter((l) => l.decision === null);
  const supplierSettled = model.supplier.kind !== 'uncertain';
  const file = inline(model.fileName, 100);

  const blocks: KnownBlock[] = [
    header(`Review: ${oneLine(model.fileName)}`),
    fieldsSection(summaryFields(model)),
    context([
      `:white_check_mark: ${plural(model.autoAccepted, 'line')} matched on their own` +
        ` · :mag: ${plural(lines.length, 'line')} needed a look · ${quantity(pending.length)} still open`,
    ]),
    ...(model.catalogEmpty ? [context([NO_CATALOG_HINT])] : []),
    ...supplierBlocks(model),
  ];

  if (lines.length > 0) {
    blocks.push(divider());
    const start = (page - 1) * REVIEW_PAGE_SIZE;
    for (const line of lines.slice(start, start + REVIEW_PAGE_SIZE))
      blocks.push(...lineBlocks(line, model.summary.currency));
    blocks.push(divider());
  }

  const scope = confirmAllScope(lines.map(reviewListLine), page);
  if (scope.confirm.length > 0) {
    const what =
      scope.sure > 0
        ? `the ${quantity(scope.seen)} on this page and ${quantity(scope.sure)} on other pages that the matcher is sure of`
        : `the ${quantity(scope.seen)} on this page`;
    blocks.push(
      actions(BLOCK.reviewConfirmAll, [
        button({
          text: `Confirm all suggestions (${scope.confirm.length})`,
          actionId: ACTION.reviewConfirmAll,
          value: confirmAllCodec.encode({ qt: model.quotationId }),
          confirm: {
            title: 'Confirm all suggestions?',
            text: `${plural(scope.confirm.length, 'open line')} will be matched to the suggested product: ${what}.`,
            confirm: 'Confirm all',
            deny: 'Cancel',
          },
        }),
      ]),
    );
  }
  if (scope.unseen > 0) blocks.push(context([unseenSentence(scope.unseen)]));
  if (model.summary.lineCount > REVIEW_PAGE_SIZE) {
    // Large quotations: every line (the auto-accepted ones too, which the pages never show) in one workbook.
    blocks.push(
      actions(BLOCK.reviewWorkbook, [
        button({
          text: `Download all lines (${quantity(model.summary.lineCount)})`,
          actionId: ACTION.reviewDownloadLines,
          value: downloadLinesCodec.encode({ qt: model.quotationId }),
        }),
      ]),
    );
  }

  if (pages > 1) {
    const pager: ActionsBlockElement[] = [];
    if (page > 1) {
      pager.push(
        button({
          text: '◀ Prev',
          actionId: ACTION.reviewPagePrev,
          value: reviewPageCodec.encode({ qt: model.quotationId, pg: page - 1 }),
        }),
      );
    }
    if (page < pages) {
      pager.push(
        button({
          text: 'Next ▶',
          actionId: ACTION.reviewPageNext,
          value: reviewPageCodec.encode({ qt: model.quotationId, pg: page + 1 }),
        }),
      );
    }
    blocks.push(context([`Page ${page} of ${pages}`]));
    blocks.push(actions(BLOCK.reviewPager, pager));
    blocks.push({
      type: 'input',
      block_id: reviewPageJumpBlockId(model.quotationId),
      dispatch_action: true,
      optional: true,
      label: plain('Go to page', 2000),
      element: {
        type: 'number_input',
        action_id: ACTION.reviewPageJump,
        is_decimal_allowed: false,
        min_value: '1',
        max_value: String(pages),
        placeholder: plain(`1–${pages}, then Enter`, 150),
      },
    });
  }

  if (pending.length === 0 && supplierSettled) {
    blocks.push(
      section(':white_check_mark: Every line is decided.'),
      actions(BLOCK.reviewStart, [
        button({
          text: 'Start negotiation…',
          actionId: ACTION.reviewStartNegotiation,
          style: 'primary',
          value: quotationRefCodec.encode({ qt: model.quotationId }),
        }),
        ...(model.offerToConnect === true
          ? [
              button({
                text: 'Connect supplier…',
                actionId: ACTION.reviewConnectSupplier,
                value: quotationRefCodec.encode({ qt: model.quotationId }),
              }),
            ]
          : []),
      ]),
    );
    if (model.offerToConnect === true) {
      blocks.push(
        context([
          ':robot_face: This supplier is not connected in Slack Connect: an agent would play its side. To negotiate ' +
            'with its own people, an approver connects it to the channel shared with it (*Connect supplier…*).',
        ]),
      );
    }
  } else if (pending.length === 0) {
    blocks.push(context(['Every line is decided. Settle the supplier above to start the negotiation.']));
  }

  const status =
    pending.length > 0
      ? `${plural(pending.length, 'line needs', 'lines need')} a look`
      : supplierSettled
        ? 'every line is decided'
        : 'the supplier needs confirming';
  const pageNote = pages > 1 ? ` (page ${page} of ${pages})` : '';
  return {
    text: `Review of ${file}: ${status}, ${plural(model.autoAccepted, 'line')} auto-accepted${pageNote}`,
    blocks,
  };
}

/** What became of a review workbook shared back in the thread. */
export type ReviewWorkbookSummary =
  | {
      kind: 'applied';
      fileName: string;
      /** The quotation's file the workbook was made from. */
      quotationFileName: string;
      confirmed: number;
      notInCatalog: number;
      unchanged: number;
      /** One sentence per row not applied (file text inside is escaped here). */
      problems: string[];
    }
  /** `reason` is Parley's own sentence (it may mention a person as `<@U…>`), never file text. */
  | { kind: 'refused'; fileName: string; reason: string };

const PROBLEMS_SHOWN = 10;

/** The reply to a review workbook shared back: what changed, what did not and why, or why nothing was applied. */
export function buildReviewWorkbookSummary(summary: ReviewWorkbookSummary): SlackMessage {
  const file = inline(summary.fileName, 100);
  if (summary.kind === 'refused') {
    const text = `:warning: *${file}* is Parley’s review workbook, but nothing was applied: ${summary.reason.slice(0, 500)}`;
    return { text: `Review workbook ${file}: nothing applied`, blocks: [section(text)] };
  }
  const changed = summary.confirmed + summary.notInCatalog;
  const head =
    changed === 0
      ? `:page_facing_up: *${file}*: no line changed (${plural(summary.unchanged, 'row')} as Parley wrote them).`
      : `:white_check_mark: *${file}* applied to the review of *${inline(summary.quotationFileName, 100)}*: ` +
        `${plural(summary.confirmed, 'line')} confirmed, ${plural(summary.notInCatalog, 'line')} marked not in ` +
        `catalog, ${plural(summary.unchanged, 'row')} unchanged.`;
  const blocks: KnownBlock[] = [section(head)];
  if (summary.problems.length > 0) {
    const shown = summary.problems.slice(0, PROBLEMS_SHOWN).map((p) => `• ${escapeTruncate(oneLine(p), 250)}`);
    const more = summary.problems.length - shown.length;
    blocks.push(
      section(
        `:warning: ${plural(summary.problems.length, 'row was', 'rows were')} not applied; their lines are as they were:\n` +
          shown.join('\n') +
          (more > 0 ? `\n…and ${plural(more, 'more row')}.` : ''),
      ),
      context(['Fix those rows in the workbook and share it again: rows already applied are left as they are.']),
    );
  }
  return {
    text: `Review workbook ${file}: ${plural(changed, 'line')} changed, ${plural(summary.problems.length, 'row')} not applied`,
    blocks,
  };
}
