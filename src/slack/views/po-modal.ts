// The purchase order modal: the decision in one line, each allocation with its figures and lines, the approvals so
// far, and — for someone allowed to approve a draft — Approve (the submit button) and Reject… (opens the reject
// modal on top). Everyone else gets the same PO read-only with a note saying why. A PO with thousands of lines shows
// what fits (≤ 100 blocks, ≤ 3000 chars a section, under the 250 kB view limit) and points to the PO workbook.
import type { AlertBlock, KnownBlock, ModalView } from '@slack/types';
import { formatMoney } from '../../commerce/money.js';
import type { PurchaseOrderAllocationView } from '../../decision/purchase-order-rules.js';
import { ACTION, BLOCK, CALLBACK, poRefCodec } from '../ids.js';
import {
  actions,
  button,
  context,
  days,
  divider,
  fieldsSection,
  listPeople,
  money,
  percent,
  plural,
  quantity,
  section,
  slackDate,
  terms,
  who,
} from './blocks.js';
import { clip, escapeTruncate, inline, label, preformatted } from './escape.js';

export type PoStatus = 'draft' | 'approved' | 'rejected' | 'superseded';

export interface PoModalItem {
  sku: string;
  description: string;
  quantity: number;
  unitPrice: number;
  lineTotal: number;
}

/** An allocation as the modal shows it: `share` is 0–1 of the order's FOB value. */
export type PoModalAllocation = Pick<
  PurchaseOrderAllocationView,
  | 'supplierName'
  | 'share'
  | 'paymentTerms'
  | 'leadTimeDays'
  | 'incoterm'
  | 'fobCost'
  | 'cashFlowCost'
  | 'effectiveLandedCost'
> & { items: PoModalItem[] };

/** A structural subset of decision/purchase-order-rules.ts `PurchaseOrderView`, so the service can pass it as is. */
export interface PoModalPurchaseOrder {
  id: string;
  number: string;
  status: PoStatus;
  version: number;
  currency: string;
  fobCost: number;
  cashFlowCost: number;
  splitOverhead: number;
  effectiveLandedCost: number;
  approvals: { approverSlackUserId: string; approvedAt: Date }[];
  rejectedReason: string | null;
  rejectedBySlackUserId: string | null;
  allocations: PoModalAllocation[];
}

export interface PoModalModel {
  po: PoModalPurchaseOrder;
  /** One or two sentences on the decision (the writer's summary). */
  decisionSummary: string | null;
  approvalsRequired: 1 | 2;
  /** What an approver should notice before approving; absent or empty parts show nothing. */
  attention?: {
    /** The buyer agreed to pay this much above the quote's landed cost for this award. */
    premiumOverQuote?: number | null;
    /** "RapidGear Co: lead time" — figures Parley assumed because the supplier never stated them. */
    assumptions?: readonly string[];
  } | null;
  viewer: {
    /** An approver looking at a draft they have not approved yet. */
    canApprove: boolean;
    /** Why not, when canApprove is false: "Only the configured approvers…", "You already approved…". */
    reason?: string | null;
  };
}

const MAX_BLOCKS = 100;
/** Characters of line tables in the whole view: keeps the JSON well below Slack's 250 kB. */
const LINES_CHAR_BUDGET = 150_000;
const SECTION_MAX = 3000;
const MAX_ALLOCATIONS = 10;
/** More item lines than one 3000-char section can hold. */
const LINES_WINDOW = 100;

const STATUS_TEXT: Readonly<Record<PoStatus, string>> = {
  draft: ':memo: Draft — waiting for approval',
  approved: ':white_check_mark: Approved',
  rejected: ':x: Rejected',
  superseded: ':fast_forward: Superseded by a newer draft',
};

function itemLine(item: PoModalItem, currency: string): string {
  const cur = currency.slice(0, 8);
  const sku = clip(item.sku, 24);
  const desc = clip(item.description, 36);
  return `${sku}  ${desc}\n    ${quantity(item.quantity)} × ${formatMoney(item.unitPrice, cur)} = ${formatMoney(item.lineTotal, cur)}`;
}

function allocationHeader(a: PoModalAllocation, currency: string): KnownBlock {
  return fieldsSection([
    `*${inline(a.supplierName, 80)}*\n${percent(a.share)} of the order`,
    `*Terms · lead time*\n${terms(a.paymentTerms)} · ${days(a.leadTimeDays)}${a.incoterm ? ` · ${inline(a.incoterm, 30)}` : ''}`,
    `*FOB*\n${money(a.fobCost, currency)}`,
    `*Cash-flow cost*\n${money(a.cashFlowCost, currency)}`,
    `*Landed cost*\n${money(a.effectiveLandedCost, currency)}`,
    `*Lines*\n${quantity(a.items.length)}`,
  ]);
}

/**
 * One `alert` block (modals only) with what needs an approver's attention on a draft: dual approval, a premium over the
 * quote the buyer accepted, figures that are Parley's assumptions. None when there is nothing to say.
 */
function attentionAlert(model: PoModalModel): AlertBlock | null {
  if (model.po.status !== 'draft') return null;
  const cur = model.po.currency;
  const lines: string[] = [];
  if (model.approvalsRequired === 2) lines.push('• Needs *two different approvers* (above the dual-approval amount).');
  const premium = model.attention?.premiumOverQuote ?? 0;
  if (premium > 0) lines.push(`• The buyer accepted paying up to *${money(premium, cur)} more* than the quote.`);
  const assumed = (model.attention?.assumptions ?? []).slice(0, 8).map((a) => inline(a, 80));
  if (assumed.length > 0) lines.push(`• Assumed, not stated by the supplier: ${assumed.join('; ')}.`);
  if (lines.length === 0) return null;
  return {
    type: 'alert',
    level: premium > 0 || model.approvalsRequired === 2 ? 'warning' : 'info',
    text: { type: 'mrkdwn', text: `*Before you approve*\n${lines.join('\n')}`.slice(0, 3000) },
  };
}

export function buildPoModal(model: PoModalModel): ModalView {
  const { po } = model;
  const cur = po.currency;
  const approvers = po.approvals.map((a) => a.approverSlackUserId);
  const mayAct = model.viewer.canApprove && po.status === 'draft';

  const top: KnownBlock[] = [section(`*${inline(po.number, 40)}* · ${STATUS_TEXT[po.status]}`)];
  const alert = attentionAlert(model);
  if (alert) top.push(alert);
  if (model.decisionSummary?.trim()) top.push(section(escapeTruncate(model.decisionSummary.trim(), 2000)));
  top.push(
    fieldsSection([
      `*FOB total*\n${money(po.fobCost, cur)}`,
      `*Cash-flow cost*\n${money(po.cashFlowCost, cur)}`,
      `*Split overhead*\n${money(po.splitOverhead, cur)}`,
      `*Landed cost*\n${money(po.effectiveLandedCost, cur)}`,
    ]),
  );

  const bottom: KnownBlock[] = [divider()];
  const approvalText =
    approvers.length === 0
      ? `0 of ${model.approvalsRequired} approvals yet`
      : `${approvers.length} of ${model.approvalsRequired} approvals: ${listPeople(approvers)}` +
        (po.approvals[0] ? ` · first ${slackDate(po.approvals[0].approvedAt)}` : '');
  bottom.push(context([`:ballot_box_with_check: ${approvalText}`]));
  if (po.status === 'rejected') {
    bottom.push(
      section(`*Rejected by ${who(po.rejectedBySlackUserId)}*\n> ${inline(po.rejectedReason ?? '', 600) || '—'}`),
    );
  }
  if (mayAct) {
    bottom.push(
      actions(BLOCK.poActions, [
        button({
          text: 'Reject…',
          actionId: ACTION.poReject,
          style: 'danger',
          value: poRefCodec.encode({ po: po.id, v: po.version }),
        }),
      ]),
    );
    bottom.push(
      context([
        model.approvalsRequired === 2
          ? 'This PO needs two different approvers: it is approved once both have clicked Approve.'
          : 'Approve makes this purchase order final.',
      ]),
    );
  } else {
    const why =
      po.status !== 'draft'
        ? 'This purchase order is no longer waiting for approval.'
        : (model.viewer.reason ?? 'Only the configured approvers can approve purchase orders.');
    bottom.push(context([`:lock: Read-only. ${inline(why, 300)}`]));
  }

  // Every allocation gets its header; their lines share what room is left (one block kept for "…and N more"), each
  // allocation an equal part of what the ones before it left over, packed into preformatted sections.
  const allocations = po.allocations.slice(0, MAX_ALLOCATIONS);
  const middle: KnownBlock[] = [];
  let blocksLeft = MAX_BLOCKS - top.length - bottom.length - 1 - 2 * allocations.length;
  let charsLeft = LINES_CHAR_BUDGET;
  let omitted = po.allocations.slice(MAX_ALLOCATIONS).reduce((n, a) => n + a.items.length, 0);
  allocations.forEach((a, i) => {
    middle.push(divider(), allocationHeader(a, cur));
    const share = allocations.length - i;
    let blocks = Math.floor(blocksLeft / share);
    let chars = Math.floor(charsLeft / share);
    let next = 0;
    while (next < a.items.length && blocks > 0 && chars > 200) {
      // A section holds a few dozen lines: format only a window of them, not a 10K-line PO each time.
      const window = a.items.slice(next, next + LINES_WINDOW).map((item) => itemLine(item, cur));
      const packed = preformatted(window, Math.min(SECTION_MAX, chars));
      if (packed.shown === 0) break;
      middle.push(section(packed.text));
      blocks--;
      blocksLeft--;
      chars -= packed.text.length;
      charsLeft -= packed.text.length;
      next += packed.shown;
    }
    omitted += a.items.length - next;
  });
  if (omitted > 0) middle.push(context([`…and ${plural(omitted, 'more line')} in the PO workbook.`]));

  const view: ModalView = {
    type: 'modal',
    callback_id: CALLBACK.poModal,
    private_metadata: poRefCodec.encode({ po: po.id, v: po.version }),
    title: label('Purchase order', 24),
    close: label('Close', 24),
    blocks: [...top, ...middle, ...bottom],
  };
  if (mayAct) view.submit = label('Approve', 24);
  return view;
}
